import Foundation
import ImageCore
import ImageCodecs
import ImageResize
import ImageMetrics

/// The documented bugs, reproduced the way they happen — bytes relabelled with the wrong
/// format, a resizer run with the wrong option — independently of the diagnosis's candidates.
enum Bugs {
    /// Bytes of `b` relabelled with another format (the misread); same size and row length.
    static func relabel(_ b: Bitmap, as format: PixelFormat) throws -> Bitmap {
        try Bitmap(width: b.width, height: b.height, format: format, bytesPerRow: b.bytesPerRow, bytes: b.bytes)
    }

    static func rgba(_ b: Bitmap) throws -> Bitmap { try b.converted(to: .rgba8) }

    /// RGB byte permutation `p` of a tightly packed 8-bit RGB bitmap.
    static func permute(_ b: Bitmap, _ p: [Int]) throws -> Bitmap {
        let rgb = try b.converted(to: .rgb8)
        var out = rgb.bytes
        for i in stride(from: 0, to: out.count, by: 3) {
            for c in 0..<3 { out[i + c] = rgb.bytes[i + p[c]] }
        }
        return try Bitmap(width: b.width, height: b.height, format: .rgb8, bytes: out)
    }

    /// Uniform deterministic noise in −a…a added to every colour byte of an 8-bit bitmap.
    static func noisy(_ b: Bitmap, amplitude a: Int, seed: UInt32 = 7) throws -> Bitmap {
        guard a > 0 else { return b }
        let f = b.format
        let target: PixelFormat = f.alphaInfo.hasAlpha || f.colorModel.paletteHasAlpha ? .rgba8 : .rgb8
        let c = try b.converted(to: target)
        var out = c.bytes
        var s = seed
        let n = target.slotCount
        for i in 0..<out.count where i % n < 3 {
            s = s &* 1664525 &+ 1013904223
            out[i] = UInt8(clamping: Int(out[i]) + Int(s >> 16) % (2 * a + 1) - a)
        }
        return try Bitmap(width: b.width, height: b.height, format: target, bytes: out)
    }

    /// Content shifted by (dx, dy) whole pixels, edges repeated.
    static func shifted(_ b: Bitmap, dx: Int, dy: Int) throws -> Bitmap {
        let rgb = try b.converted(to: .rgb8)
        var out = rgb.bytes
        for y in 0..<b.height {
            for x in 0..<b.width {
                let sx = min(max(x - dx, 0), b.width - 1), sy = min(max(y - dy, 0), b.height - 1)
                for c in 0..<3 { out[(y * b.width + x) * 3 + c] = rgb.bytes[(sy * b.width + sx) * 3 + c] }
            }
        }
        return try Bitmap(width: b.width, height: b.height, format: .rgb8, bytes: out)
    }

    /// Content shifted by half a pixel right (and/or down): rounded integer means of neighbours.
    static func halfShifted(_ b: Bitmap, right: Bool, down: Bool) throws -> Bitmap {
        let rgb = try b.converted(to: .rgb8)
        var out = rgb.bytes
        func at(_ x: Int, _ y: Int, _ c: Int) -> Int {
            Int(rgb.bytes[(min(max(y, 0), b.height - 1) * b.width + min(max(x, 0), b.width - 1)) * 3 + c])
        }
        for y in 0..<b.height {
            for x in 0..<b.width {
                for c in 0..<3 {
                    let ox = right ? 1 : 0, oy = down ? 1 : 0
                    let sum = at(x, y, c) + at(x - ox, y, c) + at(x, y - oy, c) + at(x - ox, y - oy, c)
                    out[(y * b.width + x) * 3 + c] = UInt8((sum + 2) / 4)
                }
            }
        }
        return try Bitmap(width: b.width, height: b.height, format: .rgb8, bytes: out)
    }

    /// Resized by ImageResize (the resizer under test is the independent producer here).
    static func resized(_ b: Bitmap, _ w: Int, _ h: Int, kernel: Kernel = .lanczos3, light: LightSpace = .linear,
                        format: PixelFormat? = nil) throws -> Bitmap {
        let options = ResizeOptions(kernel: kernel, lightSpace: light, outputFormat: format)
        return try Image(bitmap: b).resized(width: w, height: h, options: options).bitmap
    }

    /// Nearest-neighbour decimation to w×h — the D10 bug, "no antialiasing when shrinking":
    /// each output pixel copies the source pixel its centre falls in,
    /// `source(⌊(x + ½)·W/w⌋, ⌊(y + ½)·H/h⌋)` (Pillow's NEAREST, CoreGraphics' `.none`).
    /// ImageResize's `.nearest` kernel is *not* this when shrinking: it is a box, an area average.
    static func pointSampled(_ b: Bitmap, _ w: Int, _ h: Int) throws -> Bitmap {
        let rgb = try b.converted(to: .rgb8)
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            let sy = min((2 * y + 1) * b.height / (2 * h), b.height - 1)
            for x in 0..<w {
                let sx = min((2 * x + 1) * b.width / (2 * w), b.width - 1)
                for c in 0..<3 { out[(y * w + x) * 3 + c] = rgb.bytes[(sy * b.width + sx) * 3 + c] }
            }
        }
        return try Bitmap(width: w, height: h, format: .rgb8, bytes: out)
    }

    /// A JPEG round trip at `quality`.
    static func jpeg(_ b: Bitmap, quality: Int) throws -> Bitmap {
        let bytes = try ImageCodecs.encode(Image(bitmap: try b.converted(to: .rgb8)), as: .jpeg, options: EncodeOptions(jpegQuality: quality))
        return try ImageCodecs.decode(bytes).bitmap
    }

    /// An indexed image with transparent entries: the RGBA base posterised to 4 levels, alpha 0 or 255.
    static func palette(from b: Bitmap) throws -> Bitmap {
        let rgba = try b.converted(to: .rgba8)
        var out = rgba.bytes
        for i in stride(from: 0, to: out.count, by: 4) {
            for c in 0..<3 { out[i + c] = (out[i + c] / 64) * 85 }
            out[i + 3] = out[i + 3] < 128 ? 0 : 255
        }
        return try Bitmap(width: b.width, height: b.height, format: .rgba8, bytes: out).withExactPalette()
    }

    /// The same palette with every entry opaque (tRNS ignored).
    static func paletteTransparencyIgnored(_ b: Bitmap) throws -> Bitmap {
        guard case .indexed(let p) = b.format.colorModel else { return b }
        let opaque = Palette(p.entries.map { Palette.Entry(red: $0.red, green: $0.green, blue: $0.blue, alpha: 255) })
        return try relabel(b, as: PixelFormat(colorModel: .indexed(opaque), bitsPerComponent: b.format.bitsPerComponent))
    }
}
