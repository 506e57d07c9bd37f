import Foundation

/// The x86-64-v3 (Haswell: AVX2, FMA, BMI) build of imglab, chosen at start-up the way glibc's
/// `glibc-hwcaps/x86-64-v3` directories choose a library: the same sources compiled with
/// `-target-cpu haswell` (by `scripts/build-hardware-variant`) sit beside this binary as
/// `imglab-x86-64-v3`, and when this CPU has every feature that build may use, this process
/// replaces itself with it. The metric kernels are plain loops the vectorizer widens, so eight
/// `Float` lanes instead of four cut `imglab diff`'s CPU by about a quarter (BENCHMARKS.md).
/// Results are the same bytes: Swift does not contract `a * b + c` into FMA and nothing here is
/// compiled with relaxed floating point; `scripts/test` checks the lab's JSON of both builds.
/// `IMGLAB_HARDWARE_VARIANT=baseline` keeps the baseline build.
enum HardwareVariant {
    /// File name of the variant beside the running binary.
    static let fileName = "imglab-x86-64-v3"
    /// `/proc/cpuinfo` flags `-target-cpu haswell` may use.
    static let requiredFlags: Set<String> = ["sse4_2", "popcnt", "avx", "avx2", "fma", "bmi1", "bmi2", "f16c",
                                              "movbe", "abm", "aes", "pclmulqdq", "rdrand", "fsgsbase", "xsave"]

    /// Replaces this process with the variant when it exists, is not older than this binary (a
    /// variant left from an earlier build never runs in place of newer code), the CPU supports it,
    /// this binary is not the variant itself and `IMGLAB_HARDWARE_VARIANT` is not `baseline`;
    /// returns otherwise. Nothing is added to the environment, so processes imglab starts (an
    /// external resizer that is imglab) choose for themselves.
    static func execIfSupported() {
        let environment = ProcessInfo.processInfo.environment
        guard environment["IMGLAB_HARDWARE_VARIANT"] != "baseline" else { return }
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
              !executable.hasSuffix(fileName) else { return }
        let variant = (executable as NSString).deletingLastPathComponent + "/" + fileName
        guard FileManager.default.isExecutableFile(atPath: variant), isCurrent(variant, comparedWith: executable),
              cpuHasRequiredFlags() else { return }
        execv(variant, CommandLine.unsafeArgv)  // returns only if the exec failed: carry on with this build
    }

    /// Whether `variant` was modified no earlier than `executable`.
    static func isCurrent(_ variant: String, comparedWith executable: String) -> Bool {
        let files = FileManager.default
        guard let v = (try? files.attributesOfItem(atPath: variant))?[.modificationDate] as? Date,
              let e = (try? files.attributesOfItem(atPath: executable))?[.modificationDate] as? Date else { return false }
        return v >= e
    }

    /// Whether the first processor's `flags` line of `/proc/cpuinfo` lists every required flag.
    static func cpuHasRequiredFlags() -> Bool {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = info.split(separator: "\n").first(where: { $0.hasPrefix("flags") }),
              let colon = line.firstIndex(of: ":") else { return false }
        let flags = Set(line[line.index(after: colon)...].split(separator: " ").map(String.init))
        return requiredFlags.isSubset(of: flags)
    }
}
