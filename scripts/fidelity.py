#!/usr/bin/env python3
"""Rendering fidelity: Autograph against MuPDF and poppler on the corpus.

Each chosen page (page 1, and for multi-page files page 2 and the last) is rendered at 72 dpi by
`autograph render`, `mutool draw` and `pdftoppm`. After a 3x3 box blur of both images, a page
matches a reference when at most 2 % of its pixels differ by more than 64/255 in some channel.
A page counts as matched when it matches MuPDF or poppler (the two agree on only about 92 % of
pages by this measure). Only pages that at least one reference renders are counted.

Prints the share of matched pages per corpus class and overall, the ten slowest pages with their
time against mutool draw's (the budget: 3x mutool + 50 ms a page), and the worst
pages with their difference images written to --out.

    scripts/fidelity.py [--corpus DIR] [--autograph PATH] [--out DIR] [--files A,B] [--min-share S]
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import time

import numpy
from PIL import Image

DPI = 72
TOLERANCE = 64
MAX_SHARE = 0.02


def corpus_files(root):
    """(name, password, classes, pages) for every file in the corpus README's table."""
    files = []
    with open(os.path.join(root, "README.md"), encoding="utf-8") as readme:
        in_table = False
        for line in readme:
            if line.startswith("| file | source repo"):
                in_table = True
                continue
            if not in_table or not line.startswith("| ") or line.startswith("|---"):
                continue
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if len(cells) < 7:
                continue
            name, pages, password, classes = cells[0], cells[4], cells[5].strip("`"), cells[6].split()
            try:
                pages = int(pages)
            except ValueError:
                pages = 0
            if password == "(empty)":
                password = ""
            files.append((name, password or None, classes or ["plain"], pages))
    return files


def run(command, timeout=60):
    start = time.monotonic()
    try:
        result = subprocess.run(command, capture_output=True, timeout=timeout)
        return result.returncode, time.monotonic() - start, result.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return -1, time.monotonic() - start, "timeout"


def load(path):
    try:
        with Image.open(path) as image:
            return numpy.asarray(image.convert("RGB"), dtype=numpy.float32)
    except Exception:
        return None


def blur(pixels):
    padded = numpy.pad(pixels, ((1, 1), (1, 1), (0, 0)), mode="edge")
    total = numpy.zeros_like(pixels)
    for dy in range(3):
        for dx in range(3):
            total += padded[dy:dy + pixels.shape[0], dx:dx + pixels.shape[1]]
    return total / 9


def difference(ours, reference):
    """The share of pixels that differ by more than TOLERANCE, and the difference mask."""
    if ours is None or reference is None:
        return 1.0, None
    height = min(ours.shape[0], reference.shape[0])
    width = min(ours.shape[1], reference.shape[1])
    # Sizes may differ by a pixel of rounding; a larger mismatch is a wrong page size.
    if abs(ours.shape[0] - reference.shape[0]) > 2 or abs(ours.shape[1] - reference.shape[1]) > 2:
        return 1.0, None
    a = blur(ours[:height, :width])
    b = blur(reference[:height, :width])
    mask = (numpy.abs(a - b) > TOLERANCE).any(axis=2)
    return float(mask.mean()), mask


def render_page(task):
    corpus, autograph, work, name, password, page = task
    path = os.path.join(corpus, name)
    stem = os.path.join(work, name.replace("/", "_") + f"-{page}")
    ours, theirs, poppler = stem + "-autograph.png", stem + "-mupdf.png", stem + "-poppler.png"
    pw = ["--password", password] if password else []
    ours_status, ours_time, ours_errors = run([autograph, "render", path, "-o", ours, "--page", str(page), "--dpi", str(DPI)] + pw)
    _, mutool_time, _ = run(["mutool", "draw", "-q", "-r", str(DPI), "-o", theirs] + (["-p", password] if password else [])
                            + [path, str(page)])
    run(["pdftoppm", "-r", str(DPI), "-png", "-singlefile", "-f", str(page), "-l", str(page)]
        + (["-upw", password] if password else []) + [path, stem + "-poppler"])
    images = {key: load(file) if os.path.exists(file) and os.path.getsize(file) > 0 else None for key, file in
              (("ours", ours), ("mupdf", theirs), ("poppler", poppler))}
    # pdftoppm writes a 1x1 white image for a page it could not find in a broken file: no rendering.
    for key in ("mupdf", "poppler"):
        if images[key] is not None and images[key].shape[0] * images[key].shape[1] <= 1:
            images[key] = None
    mupdf_share, mupdf_mask = difference(images["ours"], images["mupdf"])
    poppler_share, poppler_mask = difference(images["ours"], images["poppler"])
    references = [key for key in ("mupdf", "poppler") if images[key] is not None]
    refs_agree, _ = difference(images["mupdf"], images["poppler"]) if len(references) == 2 else (1.0, None)
    best = min(mupdf_share if images["mupdf"] is not None else 1.0,
               poppler_share if images["poppler"] is not None else 1.0)
    mask = mupdf_mask if mupdf_share <= poppler_share else poppler_mask
    return {
        "name": name, "page": page, "references": references, "share": best,
        "matched": best <= MAX_SHARE and bool(references), "time": ours_time, "mutool_time": mutool_time,
        # Exit 3: drawn, with warnings about the page's content.
        "failed": ours_status not in (0, 3), "errors": ours_errors.strip().splitlines()[-1:] if ours_status not in (0, 3) else [],
        "references_agree": refs_agree <= MAX_SHARE, "mask": mask,
        "ours": ours, "reference": theirs if mupdf_share <= poppler_share else poppler,
    }


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=os.environ.get("AUTOGRAPH_CORPUS")
                        or os.path.normpath(os.path.join(here, "../../shared/corpus")))
    parser.add_argument("--autograph", default=os.path.join(here, "../.build/release/autograph"))
    parser.add_argument("--out", default=os.path.join(here, "../.build/fidelity"))
    parser.add_argument("--files", help="comma-separated corpus names (a fixed subset)")
    parser.add_argument("--min-share", type=float, default=0.0, help="fail below this share of matched pages")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--worst", type=int, default=15)
    options = parser.parse_args()
    if not os.path.isdir(options.corpus):
        print(f"notice: no corpus at {options.corpus}; fidelity not measured")
        return 0
    files = corpus_files(options.corpus)
    if options.files:
        wanted = {name.strip() for name in options.files.split(",") if name.strip()}
        files = [entry for entry in files if entry[0] in wanted]
        missing = wanted - {entry[0] for entry in files}
        if missing:
            print(f"fidelity: not in the corpus README: {', '.join(sorted(missing))}")
            return 1
    work = os.path.join(options.out, "pages")
    os.makedirs(work, exist_ok=True)
    tasks = []
    classes_of = {}
    for name, password, classes, pages in files:
        classes_of[name] = classes
        chosen = sorted({page for page in (1, 2, pages) if 1 <= page <= max(pages, 1)})
        for page in chosen:
            tasks.append((options.corpus, options.autograph, work, name, password, page))
    started = time.monotonic()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
        for index, result in enumerate(pool.map(render_page, tasks)):
            results.append(result)
            if (index + 1) % 25 == 0:
                print(f"  {index + 1}/{len(tasks)} pages", file=sys.stderr)
    counted = [r for r in results if r["references"]]
    matched = [r for r in counted if r["matched"]]
    per_class = {}
    for result in counted:
        for tag in classes_of[result["name"]]:
            total, hits = per_class.get(tag, (0, 0))
            per_class[tag] = (total + 1, hits + (1 if result["matched"] else 0))
    print(f"fidelity at {DPI} dpi: {len(matched)}/{len(counted)} pages match MuPDF or poppler "
          f"({100 * len(matched) / max(len(counted), 1):.1f} %); the references agree with each other on "
          f"{sum(r['references_agree'] for r in counted)}/{sum(len(r['references']) == 2 for r in counted)}; "
          f"{len(results) - len(counted)} pages no reference renders; {time.monotonic() - started:.0f} s")
    print(f"{'class':24} {'pages':>6} {'matched':>8} {'share':>7}")
    for tag, (total, hits) in sorted(per_class.items(), key=lambda item: -item[1][0]):
        print(f"{tag:24} {total:6} {hits:8} {100 * hits / total:6.1f}%")
    failures = [r for r in results if r["failed"]]
    if failures:
        print(f"autograph render failed on {len(failures)} pages:")
        for r in failures[:20]:
            print(f"  {r['name']} p{r['page']}: {' '.join(r['errors'])}")
    # Time per page against mutool draw's on the same page (each a whole process, at the same dpi).
    slow = sorted(results, key=lambda r: -r["time"])[:10]
    print("ten slowest pages (autograph / mutool):")
    for r in slow:
        print(f"  {r['name']} p{r['page']}: {r['time']:.2f} s / {r['mutool_time']:.2f} s = "
              f"{r['time'] / max(r['mutool_time'], 0.001):.1f}x")
    # The budget: no page costs more than 3 times mutool's time plus 50 ms.
    over = [r for r in results if r["time"] > 3 * r["mutool_time"] + 0.05]
    worst_ratio = max(results, key=lambda r: r["time"] / max(r["mutool_time"], 0.001), default=None)
    if worst_ratio:
        print(f"worst time ratio: {worst_ratio['name']} p{worst_ratio['page']} "
              f"{worst_ratio['time'] / max(worst_ratio['mutool_time'], 0.001):.1f}x mutool; "
              f"{len(over)} pages over 3x mutool + 50 ms")
    worst = sorted((r for r in counted if not r["matched"]), key=lambda r: -r["share"])[:options.worst]
    if worst:
        print(f"worst pages (difference images in {options.out}/worst):")
        os.makedirs(os.path.join(options.out, "worst"), exist_ok=True)
        for r in worst:
            label = r["name"].replace("/", "_") + f"-p{r['page']}"
            if r["mask"] is not None:
                Image.fromarray((r["mask"] * 255).astype(numpy.uint8)).save(
                    os.path.join(options.out, "worst", label + "-diff.png"))
            print(f"  {r['name']} p{r['page']}: {100 * r['share']:.1f} % of pixels differ")
    share = len(matched) / max(len(counted), 1)
    if share < options.min_share:
        print(f"FAIL: {100 * share:.1f} % is below the required {100 * options.min_share:.1f} %")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
