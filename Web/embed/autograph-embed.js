// The embedding module (see docs/embedding.md).
