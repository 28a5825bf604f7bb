// Affine matrices [a, b, c, d, e, f] (PDF order: x' = a x + c y + e, y' = b x + d y + f).

export function apply(m, x, y) {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

export function invert(m) {
  const det = m[0] * m[3] - m[1] * m[2];
  if (!det) return [1, 0, 0, 1, 0, 0];
  return [m[3] / det, -m[1] / det, -m[2] / det, m[0] / det,
    (m[2] * m[5] - m[3] * m[4]) / det, (m[1] * m[4] - m[0] * m[5]) / det];
}

/** The view box {x, y, w, h} of a PDF rectangle [x0, y0, x1, y1] (or of quad points) under `m`. */
export function viewBox(m, points) {
  const corners = points.length === 4
    ? [[points[0], points[1]], [points[2], points[1]], [points[0], points[3]], [points[2], points[3]]]
    : Array.from({ length: points.length / 2 }, (_, i) => [points[2 * i], points[2 * i + 1]]);
  const mapped = corners.map(([x, y]) => apply(m, x, y));
  const xs = mapped.map((p) => p[0]);
  const ys = mapped.map((p) => p[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
}

/** The PDF rectangle [x0, y0, x1, y1] of a view box under the inverse of `m`. */
export function pdfRect(m, box) {
  const inverse = invert(m);
  const a = apply(inverse, box.x, box.y);
  const b = apply(inverse, box.x + box.w, box.y + box.h);
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1])];
}

