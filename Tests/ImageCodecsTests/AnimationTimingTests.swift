import Foundation
import Testing
@testable import ImageCodecs

/// ``ImageHeader/timing`` is read from the file's structure alone: the corpus's animations
/// give the delays and loop counts their manifest documents, and a header that declares
/// millions of frames costs nothing.
@Suite("animation timing from headers")
struct AnimationTimingTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpus")

    struct Animated: Decodable { var id: String; var file: String; var animation: Timing? }
    struct Timing: Decodable { var delays: [Double]; var loopCount: Int }
    struct Manifest: Decodable { var cases: [Animated] }

    @Test("every animated corpus source's header gives the manifest's delays and loop count")
    func corpusTimings() throws {
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: Self.corpus.appendingPathComponent("manifest.json")))
        let animated = manifest.cases.filter { $0.animation != nil }
        #expect(animated.count >= 4)
        for entry in animated {
            let bytes = try ImageCodecs.readFile(Self.corpus.appendingPathComponent(entry.file).path)
            let timing = try #require(try ImageCodecs.readHeader(bytes).timing, "\(entry.id)")
            #expect(timing.delays == entry.animation?.delays, "\(entry.id)")
            #expect(timing.loopCount == entry.animation?.loopCount, "\(entry.id)")
        }
    }

    @Test("an acTL declaring 2³¹−1 frames over two held ones gives those two delays, at once")
    func hugeDeclaredCount() throws {
        let dir = Self.corpus.appendingPathComponent("sources").path
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: dir).sorted().first { $0.hasPrefix("apng-") })
        var bytes = try ImageCodecs.readFile(dir + "/" + name)
        let acTL = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual(Array("acTL".utf8)) })
        let held = try #require(try ImageCodecs.readHeader(bytes).timing).delays
        bytes.replaceSubrange((acTL + 4)..<(acTL + 8), with: [0x7F, 0xFF, 0xFF, 0xFF])
        let crc = PNGChunkList.crc(Array("acTL".utf8), bytes[(acTL + 4)..<(acTL + 12)])
        bytes.replaceSubrange((acTL + 12)..<(acTL + 16), with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        let header = try ImageCodecs.readHeader(bytes)
        #expect(header.frameCount == 0x7FFF_FFFF)
        #expect(header.timing?.delays == held)
    }
}
