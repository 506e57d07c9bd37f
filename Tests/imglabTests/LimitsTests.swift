import Foundation
import Testing
import ImageCodecs

/// Acceptance 5 of the foundation issue: a header declaring an enormous image is rejected
/// before any large allocation, in every container.
@Suite("Limits")
struct LimitsTests {
    /// (container, file bytes, declared size); JPEG and GIF store 16-bit sizes, so 65535 is their maximum.
    static let cases: [(String, [UInt8], Int)] = [
        ("png", HugeHeaders.png(width: 100_000, height: 100_000), 100_000),
        ("jpeg", HugeHeaders.jpeg(width: 65_535, height: 65_535), 65_535),
        ("gif", HugeHeaders.gif(width: 65_535, height: 65_535), 65_535),
        ("tiff", HugeHeaders.tiff(width: 100_000, height: 100_000), 100_000),
        ("bmp", HugeHeaders.bmp(width: 100_000, height: 100_000), 100_000),
    ]

    @Test("the decoder throws limitExceeded for a huge declared size", arguments: 0..<5)
    func decoderRejects(index: Int) {
        let (name, bytes, _) = Self.cases[index]
        #expect(ContainerFormat(sniffing: bytes)?.rawValue == name)
        do {
            _ = try ImageCodecs.decode(bytes)
            Issue.record("\(name): a \(Self.cases[index].2)² header decoded")
        } catch {
            guard case .limitExceeded = error else {
                Issue.record("\(name): expected limitExceeded, got \(error)")
                return
            }
        }
    }

    @Test("imglab info rejects each huge header with peak memory under 100 MiB", arguments: 0..<5)
    func processMemory(index: Int) throws {
        let (name, bytes, size) = Self.cases[index]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID().uuidString).\(name)")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try ImglabRun.run(["info", file.path])
        print("huge \(name) header (\(size)×\(size)): exit \(run.status), peak RSS \(String(format: "%.1f", run.peakRSSMiB)) MiB")
        #expect(run.status == 1)
        #expect((run.stdout + run.stderr).contains("limit exceeded"))
        #expect(run.peakRSSMiB < 100)
    }
}
