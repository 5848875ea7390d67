//! Library side of the `podlens` binary.
