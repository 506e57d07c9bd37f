import Foundation
import Testing
import ImageCore
@testable import ImageCodecs

/// The thumbnail an EXIF block embeds (IFD1): written, read back through a JPEG, and judged by
/// `imglab info` against the image it sits in — a thumbnail of the same picture shows it, a
/// stale one (another picture) or one of the picture turned a quarter does not.
@Suite("EXIF embedded thumbnails")
struct EXIFThumbnailTests {
    /// A 64 × 48 picture: a red-to-blue ramp across, a green ramp down, a dark block top-left.
    static func picture(inverted: Bool = false) throws -> Bitmap {
        var bytes: [UInt8] = []
        for y in 0..<48 {
            for x in 0..<64 {
                let dark = x < 24 && y < 16
                var rgb = dark ? [20, 20, 20] : [x * 4, y * 5, 255 - x * 4]
                if inverted { rgb = rgb.map { 255 - $0 } }
                bytes += rgb.map(UInt8.init)
            }
        }
        return try Bitmap(width: 64, height: 48, format: .rgb8, bytes: bytes)
    }

    /// `bitmap` averaged over 4 × 4 blocks (16 × 12), as a JPEG of quality 95.
    static func thumbnailJPEG(of bitmap: Bitmap) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for ty in 0..<(bitmap.height / 4) {
            for tx in 0..<(bitmap.width / 4) {
                for c in 0..<3 {
                    var sum = 0
                    for y in 0..<4 { for x in 0..<4 { sum += Int(bitmap.bytes[(ty * 4 + y) * bitmap.bytesPerRow + (tx * 4 + x) * 3 + c]) } }
                    bytes.append(UInt8((sum + 8) / 16))
                }
            }
        }
        let small = try Bitmap(width: bitmap.width / 4, height: bitmap.height / 4, format: .rgb8, bytes: bytes)
        return try ImageCodecs.encode(Image(bitmap: small), as: .jpeg, options: EncodeOptions(jpegQuality: 95))
    }

    /// The main picture as a JPEG carrying `thumbnail` in its EXIF block, decoded again.
    static func jpegCarrying(_ thumbnail: EXIFThumbnail) throws -> Image {
        let image = Image(bitmap: try picture(), metadata: ImageMetadata(exif: thumbnail.block(orientation: .up)))
        return try ImageCodecs.decode(try ImageCodecs.encode(image, as: .jpeg, options: EncodeOptions(jpegQuality: 95)))
    }

    @Test("a thumbnail written into IFD1 survives a JPEG round trip byte for byte, with its own orientation tag")
    func roundTrip() throws {
        let thumbnail = EXIFThumbnail(jpeg: try Self.thumbnailJPEG(of: try Self.picture()), orientationValue: 1)
        let decoded = try Self.jpegCarrying(thumbnail)
        #expect(decoded.metadata.exif.flatMap(EXIFThumbnail.reading) == thumbnail)
        #expect(decoded.metadata.exif.flatMap(EXIF.orientationValue) == 1)
    }

    @Test("info: a thumbnail of the same picture shows the image (16×12, mean |Δ| within the limit)")
    func matchingThumbnail() throws {
        let thumbnail = EXIFThumbnail(jpeg: try Self.thumbnailJPEG(of: try Self.picture()))
        let info = FileInfo(path: "x.jpg", container: .jpeg, image: try Self.jpegCarrying(thumbnail))
        let embedded = try #require(info.embeddedThumbnail)
        #expect(embedded.width == 16 && embedded.height == 12)
        #expect(embedded.matches == true, "mean |Δ| \(embedded.meanDeparture ?? .nan)")
        #expect(info.text.contains("thumbnail      16×12 JPEG in EXIF IFD1"))
    }

    @Test("info: a stale thumbnail (another picture) and one turned a quarter do not show the image")
    func staleThumbnails() throws {
        let stale = EXIFThumbnail(jpeg: try Self.thumbnailJPEG(of: try Self.picture(inverted: true)))
        let turned = EXIFThumbnail(jpeg: try Self.thumbnailJPEG(of: Orientation.right.apply(to: try Self.picture())))
        for thumbnail in [stale, turned] {
            let embedded = try #require(FileInfo(path: "x.jpg", container: .jpeg, image: try Self.jpegCarrying(thumbnail)).embeddedThumbnail)
            #expect(embedded.matches == false, "mean |Δ| \(embedded.meanDeparture ?? .nan)")
        }
    }

    @Test("a block whose IFD1 points outside it, at no JPEG, or that is cut short gives no thumbnail")
    func brokenBlocks() throws {
        let block = EXIFThumbnail(jpeg: try Self.thumbnailJPEG(of: try Self.picture())).block(orientation: .up)
        #expect(EXIFThumbnail.reading(block) != nil)
        #expect(EXIFThumbnail.reading(Array(block.prefix(block.count - 10))) == nil)
        var notJPEG = block
        notJPEG[notJPEG.count - Self.jpegLength(block)] = 0
        #expect(EXIFThumbnail.reading(notJPEG) == nil)
        #expect(EXIFThumbnail.reading(EXIF.block(orientation: .right)) == nil)
        #expect(EXIFThumbnail.reading([0x4D, 0x4D, 0, 42]) == nil)
    }

    static func jpegLength(_ block: [UInt8]) -> Int { EXIFThumbnail.reading(block)?.jpeg.count ?? 0 }
}
