import Foundation
import Testing
import ImageCore
import ImageCodecs

/// `imglab diff --size-policy resize`: the actual image resized to the expected's displayed size
/// (Lanczos 3 in linear light), then judged as one size. The actual files are the expected
/// picture with every pixel doubled (80×60): resized back, they must be the picture again, give
/// or take the kernel's rounding; a swapped copy must still be named a channel swap.
@Suite("diff --size-policy resize")
struct SizePolicyResizeTests {
    /// The 40×30 picture of `DiffCommandTests.png`, every pixel repeated 2 × 2 (80×60).
    static func doubled(swap: Bool = false) throws -> String {
        var bytes: [UInt8] = []
        for y in 0..<60 {
            for x in 0..<80 {
                let r = UInt8(x / 2 * 6), g = UInt8(y / 2 * 8), b = UInt8(200 - x / 2)
                bytes += swap ? [b, g, r] : [r, g, b]
            }
        }
        let path = DiffCommandTests.temporaryPath("doubled-\(swap).png")
        try Data(try ImageCodecs.encode(Image(bitmap: try Bitmap(width: 80, height: 60, format: .rgb8, bytes: bytes)), as: .png))
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a 2× copy resized back passes a tight gate and says it was resized; by default the sizes are the verdict")
    func resizedThenJudged() throws {
        let expected = try DiffCommandTests.png(), actual = try Self.doubled()
        let gate = "exact.max <= 3"
        let resized = try ImglabRun.run(["diff", expected, actual, "--size-policy", "resize", "--gate", gate])
        #expect(resized.status == 0, "\(resized.stdout) \(resized.stderr)")
        #expect(resized.stdout.contains("actual resized from 80×60 to 40×30 (Lanczos 3 in linear light) before comparing"), "\(resized.stdout)")
        #expect(!resized.stdout.contains("DIFFERENT SIZES"))
        let aligned = try ImglabRun.run(["diff", expected, actual, "--gate", gate])
        #expect(aligned.status == 1 && aligned.stdout.contains("DIFFERENT SIZES") && aligned.stdout.contains("scaled 2×"), "\(aligned.stdout)")
    }

    @Test("a swapped 2× copy, resized, fails and is diagnosed as a channel swap; the JSON and a folder diff say it was resized")
    func resizedSwapDiagnosed() throws {
        let expected = try DiffCommandTests.png(), swapped = try Self.doubled(swap: true)
        let json = DiffCommandTests.temporaryPath("resized.json")
        let run = try ImglabRun.run(["diff", expected, swapped, "--size-policy", "resize", "--json", json])
        #expect(run.status == 1 && run.stdout.contains("channel-order"), "\(run.stdout)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        #expect((object["resized"] as? String)?.hasPrefix("actual resized from 80×60 to 40×30") == true, "\(object.keys.sorted())")
        let root = DiffCommandTests.temporaryPath("folders")
        for (side, file) in [("e", expected), ("a", swapped)] {
            try FileManager.default.createDirectory(atPath: root + "/" + side, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: file, toPath: root + "/\(side)/p.png")
        }
        let folders = try ImglabRun.run(["diff", root + "/e", root + "/a", "--size-policy", "resize"])
        #expect(folders.status == 1 && folders.stdout.contains("CHANGED   p.png — actual resized from 80×60 to 40×30"), "\(folders.stdout)")
    }
}
