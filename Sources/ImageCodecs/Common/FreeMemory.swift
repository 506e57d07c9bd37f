import CImageShim

/// Freed heap memory, given back to the system.
public enum FreeMemory {
    /// Returns the heap's free memory to the system (glibc's `malloc_trim(0)`), so the process's
    /// resident size is what it holds; the fuzzer calls it between inputs so each input's peak
    /// is measured on its own, not on an earlier input's leftovers.
    public static func release() { imglab_release_free_memory() }
}

/// AddressSanitizer's quarantine: under ASan, freed memory is held (poisoned, resident) until the
/// quarantine's size is reached, so a process's resident size includes up to that much memory
/// the program has already given back.
public enum SanitizerQuarantine {
    /// ASan's default quarantine on 64-bit systems, in MiB (`quarantine_size_mb` unset).
    public static let defaultMiB = 256

    /// Whether this build runs under AddressSanitizer.
    public static var isActive: Bool { imglab_address_sanitizer() != 0 }

    /// The MiB of freed memory the quarantine may keep resident: `quarantine_size_mb` of
    /// `options` (the `ASAN_OPTIONS` syntax: `key=value` pairs separated by `:`, `,` or spaces),
    /// ``defaultMiB`` when it is not set; 0 when `active` is false.
    public static func residentMiB(options: String?, active: Bool = isActive) -> Int {
        guard active else { return 0 }
        for pair in (options ?? "").split(whereSeparator: { $0 == ":" || $0 == "," || $0 == " " }) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0] == "quarantine_size_mb", let mib = Int(parts[1]), mib >= 0 { return mib }
        }
        return defaultMiB
    }
}
