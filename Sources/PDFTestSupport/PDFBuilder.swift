// PDF builder for tests (filled in below).
