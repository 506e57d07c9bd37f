import ImageCore
import ImageCorpus

/// The images the contract fingerprint runs through a resizer, each built to make one part of a
/// resampler's design visible, and the operation it is run with. Made in code, sRGB-encoded.
enum CalibrationImages {
    /// A calibration image and the operation it is run with.
    typealias Probe = (source: Image, operation: LabOperation)

    /// A shrink from 40×40 to 15×15 (scale 8/3) of a scene that tells designs apart: a 1-pixel
    /// black and white checker (the light space: its average is 128 in sRGB, 188 in linear light;
    /// and antialiasing: a support that is not widened aliases it), bars of red, green and blue
    /// (channel order), a dark ramp (the transfer curve, where a power 2.2 and the sRGB curve part)
    /// and a magenta block on the right border only (wrap-around edges carry it to the left).
    static let shrink: Probe = (source: detail(), operation: LabOperation.resize(width: 15, height: 15, mode: .scaleToFill))

    /// An enlargement from 10×10 to 37×37 of one white and one black pixel on mid-grey: the output
    /// around each is the kernel itself, sampled every 10/37 of a source pixel (its family, its
    /// negative lobes, its support).
    static let enlarge: Probe = (source: impulses(), operation: LabOperation.resize(width: 37, height: 37, mode: .scaleToFill))

    /// A shrink from 24×24 to 9×9 of an opaque red square on pixels of α = 0 that hide bright
    /// green: a premultiplying resampler keeps the edge red; one that averages straight colour
    /// turns it yellow (the halo); one that drops alpha shows the green.
    static let alpha = (source: alphaEdges(), operation: LabOperation.resize(width: 9, height: 9, mode: .scaleToFill))

    /// A 12×8 picture of four coloured quadrants, stored sideways with EXIF orientation 6
    /// (`right`, displayed 8×12), resized to its displayed size (no resampling).
    static let oriented = (source: quadrants(), operation: LabOperation.resize(width: 8, height: 12, mode: .scaleToFill))

    /// The same picture stored under each other EXIF orientation (2–8, 6 included for the
    /// `orient` operation), each resized to its displayed size and, for the tags that swap width
    /// and height, also run through `orient`: every one of the eight transforms of a 2×2 grid of
    /// four colours is a different picture, so the output names the transform drawn.
    static let everyOrientation: [Probe] = Orientation.allCases.filter { $0 != .up }.flatMap { tag -> [Probe] in
        var image = quadrants()
        image.orientation = tag
        let display = image.displaySize
        let resize: Probe = (image, .resize(width: display.width, height: display.height, mode: .scaleToFill))
        return tag.swapsDimensions ? [resize, (image, .orient)] : [resize]
    }

    /// A 16×16 RGB image of 16-bit samples whose low bytes carry detail, resized to its own size:
    /// the output keeps 16 bits, rounds to 8, or loses the picture.
    static let deep = (source: deepRamp(), operation: LabOperation.resize(width: 16, height: 16, mode: .scaleToFill))

    /// A two-frame animation (red, then blue; 12×12, written as APNG) shrunk to 6×6: every frame
    /// kept, the first one only, or not read.
    static let animation: Probe = (source: twoFrames(), operation: LabOperation.resize(width: 6, height: 6, mode: .scaleToFill))

    /// Three aspect fits into 9×9 whose free side is 4.5, 5.1 and 5.7 pixels: how the resizer
    /// rounds it (half up, to even, down or up).
    static let aspect: [(source: Image, operation: LabOperation, exact: Double)] = [15, 17, 19].map { h in
        (flat(width: 30, height: h), .resize(width: 9, height: 9, mode: .aspectFit), 9.0 * Double(h) / 30)
    }

    /// RGB 8-bit bytes from a function of (x, y).
    static func rgb(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Image {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 3)
        for y in 0..<height { for x in 0..<width { let p = pixel(x, y); bytes += [p.0, p.1, p.2] } }
        return Image(bitmap: Bitmap(uncheckedWidth: width, height: height, format: .rgb8, bytesPerRow: width * 3,
                                    bytes: bytes))
    }

    static func detail() -> Image {
        rgb(40, 40) { x, y in
            if x < 16 { return (x + y) % 2 == 0 ? (255, 255, 255) : (0, 0, 0) }
            if x >= 36 && y < 20 { return (255, 0, 255) }
            if y < 20 {
                switch x { case 16..<20: return (255, 0, 0); case 20..<24: return (0, 255, 0)
                case 24..<28: return (0, 0, 255); default: return (40, 40, 40) }
            }
            let v = UInt8((x - 16) * 3 + (y - 20) * 2)
            return (v, v, v)
        }
    }

    static func impulses() -> Image {
        rgb(10, 10) { x, y in
            if x == 3 && y == 3 { return (255, 255, 255) }
            if x == 6 && y == 6 { return (0, 0, 0) }
            return (128, 128, 128)
        }
    }

    static func alphaEdges() -> Image {
        var bytes: [UInt8] = []
        for y in 0..<24 {
            for x in 0..<24 {
                let inside = (6..<17).contains(x) && (6..<17).contains(y)
                bytes += inside ? [220, 20, 20, 255] : [0, 255, 0, 0]
            }
        }
        return Image(bitmap: Bitmap(uncheckedWidth: 24, height: 24, format: .rgba8, bytesPerRow: 96, bytes: bytes))
    }

    static func quadrants() -> Image {
        var image = rgb(12, 8) { x, y in
            switch (x < 6, y < 4) {
            case (true, true): return (255, 0, 0)
            case (false, true): return (0, 255, 0)
            case (true, false): return (0, 0, 255)
            case (false, false): return (255, 255, 0)
            }
        }
        image.orientation = .right
        return image
    }

    static func deepRamp() -> Image {
        var bytes: [UInt8] = []
        for y in 0..<16 {
            for x in 0..<16 {
                for c in 0..<3 {
                    let v = UInt16(clamping: 4096 + x * 3600 + y * 97 + c * 1111)
                    bytes += [UInt8(v >> 8), UInt8(v & 0xFF)]
                }
            }
        }
        return Image(bitmap: Bitmap(uncheckedWidth: 16, height: 16, format: .rgb16, bytesPerRow: 96, bytes: bytes))
    }

    static func twoFrames() -> Image {
        let red = rgb(12, 12) { _, _ in (220, 30, 30) }.bitmap, blue = rgb(12, 12) { _, _ in (30, 30, 220) }.bitmap
        var image = Image(bitmap: red)
        let whole = PixelRect(x: 0, y: 0, width: 12, height: 12)
        image.animation = Animation(loopCount: 0, frames: [AnimationFrame(canvas: red, delay: 0.5, region: whole),
                                                           AnimationFrame(canvas: blue, delay: 0.5, region: whole, blend: .source)])
        return image
    }

    static func flat(width: Int, height: Int) -> Image {
        rgb(width, height) { x, y in (UInt8(60 + x * 4), UInt8(80 + y * 4), 140) }
    }
}
