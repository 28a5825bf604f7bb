// Replaced by the store's crash probe.
