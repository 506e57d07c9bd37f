import Foundation
import Testing
import ImageLab

/// `imglab fuzz --replay`: input I of run seed S is a pure function of (S, I), the same bytes in
/// every process (no per-process hash seed or clock reaches it), and the same bytes the library
/// makes in this one.
@Suite("Fuzz command")
struct FuzzCommandTests {
    @Test("--replay writes the same bytes in two processes, and the library's input for the same seed and index")
    func replayIsDeterministic() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fuzzer = try #require(MutationFuzzer(seeds: FuzzSeeds.synthetic(), runSeed: 3))
        for index in [0, 17, 12_345] {
            var written: [[UInt8]] = []
            for copy in ["a", "b"] {
                let path = dir.appendingPathComponent("\(index)-\(copy).bin").path
                let run = try ImglabRun.run(["fuzz", "--seed", "3", "--replay", "\(index)", "--out", path])
                #expect(run.status == 0, "\(run.stderr)")
                written.append(try #require(FileManager.default.contents(atPath: path).map { [UInt8]($0) }))
            }
            #expect(!written[0].isEmpty)
            #expect(written[0] == written[1], "input \(index) differs between two processes")
            #expect(written[0] == fuzzer.input(index).bytes, "input \(index) differs from the library's")
        }
    }
}
