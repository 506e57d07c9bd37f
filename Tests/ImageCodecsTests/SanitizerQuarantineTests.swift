import Testing
import ImageCodecs

/// The quarantine allowance the fuzzer adds to each input's memory budget under AddressSanitizer,
/// read from `ASAN_OPTIONS` as ASan reads it (its default on 64-bit systems: 256 MiB).
@Suite("AddressSanitizer quarantine")
struct SanitizerQuarantineTests {
    @Test("quarantine_size_mb is read among other options, with any of ASan's separators",
          arguments: [("quarantine_size_mb=16:thread_local_quarantine_size_kb=256", 16),
                      ("detect_leaks=1,quarantine_size_mb=0", 0),
                      ("detect_leaks=1 quarantine_size_mb=64", 64)])
    func readsTheOption(options: String, mib: Int) {
        #expect(SanitizerQuarantine.residentMiB(options: options, active: true) == mib)
    }

    @Test("without the option ASan keeps its default 256 MiB quarantine", arguments: [nil, "", "detect_leaks=1"] as [String?])
    func defaultQuarantine(options: String?) {
        #expect(SanitizerQuarantine.residentMiB(options: options, active: true) == 256)
    }

    @Test("a build without AddressSanitizer has no quarantine, whatever ASAN_OPTIONS says")
    func noSanitizerNoQuarantine() {
        #expect(SanitizerQuarantine.residentMiB(options: "quarantine_size_mb=16", active: false) == 0)
    }
}
