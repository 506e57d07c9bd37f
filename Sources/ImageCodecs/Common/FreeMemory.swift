import CImageShim

/// Freed heap memory, given back to the system.
public enum FreeMemory {
    /// Returns the heap's free memory to the system (glibc's `malloc_trim(0)`), so the process's
    /// resident size is what it holds; the fuzzer calls it between inputs so each input's peak
    /// is measured on its own, not on an earlier input's leftovers.
    public static func release() { imglab_release_free_memory() }
}
