import Foundation
import ImageCore
import ImageCodecs

/// Pixels a comparison leaves out: rectangles (`--ignore x,y,w,h`, repeatable) and a mask image
/// (`--mask FILE.png`), in the displayed (oriented) coordinates of the compared images, pixels,
/// origin top left.
///
/// A mask image with an alpha channel ignores every pixel whose α > 0 (paint what to ignore on a
/// transparent canvas); one without alpha ignores every pixel whose luma is > 0 (white, or any
/// colour but black, on black). A mask must have the displayed size of the expected image; a
/// rectangle is clipped to it. Ignored pixels count as equal in every metric and in the
/// diagnosis (the actual image takes the expected image's values there), are counted in
/// `ignored.pixels` and drawn hatched in the report's heat map.
public struct IgnoredPixels: Sendable, Hashable {
    /// A rectangle, in displayed pixels.
    public struct Region: Sendable, Hashable, CustomStringConvertible {
        public var x: Int, y: Int, width: Int, height: Int

        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }

        /// Reads `x,y,w,h`: four integers, x and y ≥ 0, w and h ≥ 1.
        public init(parsing text: String) throws(IgnoredPixelsError) {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
                  x >= 0, y >= 0, w >= 1, h >= 1, x <= Int(Int32.max), y <= Int(Int32.max), w <= Int(Int32.max), h <= Int(Int32.max) else {
                throw .badRegion(text)
            }
            self.init(x: x, y: y, width: w, height: h)
        }

        public var description: String { "\(x),\(y),\(width),\(height)" }
    }

    /// A rectangle in fractions of the displayed width and height (0…1), so that one region fits
    /// images of every size: it covers every pixel it touches (`⌊x·W⌋ … ⌈(x + w)·W⌉`).
    public struct Fraction: Sendable, Hashable, CustomStringConvertible {
        public var x: Double, y: Double, width: Double, height: Double

        /// A fraction region; x, y in 0…1, width and height in (0, 1], x + width and y + height ≤ 1.
        /// - Throws: ``IgnoredPixelsError/badRegion(_:)`` otherwise (NaN included).
        public init(x: Double, y: Double, width: Double, height: Double) throws(IgnoredPixelsError) {
            let fits = x >= 0 && y >= 0 && width > 0 && height > 0 && x + width <= 1 + 1e-9 && y + height <= 1 + 1e-9
            guard fits else { throw .badRegion("fraction \(x),\(y),\(width),\(height)") }
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }

        /// The pixels it covers of an image displayed `w` × `h`.
        public func region(width w: Int, height h: Int) -> Region {
            let x0 = Int((x * Double(w)).rounded(.down)), y0 = Int((y * Double(h)).rounded(.down))
            let x1 = min(w, Int(((x + width) * Double(w)).rounded(.up))), y1 = min(h, Int(((y + height) * Double(h)).rounded(.up)))
            return Region(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
        }

        public var description: String { "\(x),\(y),\(width),\(height) of the size" }
    }

    /// The rectangles.
    public var regions: [Region]
    /// The rectangles in fractions of the size.
    public var fractions: [Fraction] = []
    /// The mask image (displayed orientation applies), when one was given.
    public var maskImage: Image?
    /// The name the mask is reported under (its path).
    public var maskName: String

    public init(regions: [Region] = [], maskImage: Image? = nil, maskName: String = "mask") {
        self.regions = regions
        self.maskImage = maskImage
        self.maskName = maskName
    }

    /// Regions and the mask decoded from `maskFile` (any container imglab reads), when given.
    /// - Throws: ``IgnoredPixelsError/unreadableMask(_:_:)`` when the mask cannot be read or decoded.
    public init(regions: [Region], maskFile: String?, decode: DecodeOptions = DecodeOptions()) throws(IgnoredPixelsError) {
        self.init(regions: regions)
        guard let maskFile else { return }
        do { maskImage = try ImageCodecs.decode(contentsOf: maskFile, options: decode) } catch { throw .unreadableMask(maskFile, error) }
        maskName = maskFile
    }

    /// Whether nothing is ignored.
    public var isEmpty: Bool { regions.isEmpty && fractions.isEmpty && maskImage == nil }

    /// The settings in one line, e.g. `mask m.png; regions 0,0,10,10 5,5,2,2`; `nil` when empty.
    public var summary: String? {
        guard !isEmpty else { return nil }
        var parts: [String] = []
        if maskImage != nil { parts.append("mask \(maskName)") }
        if !regions.isEmpty { parts.append("regions " + regions.map(\.description).joined(separator: " ")) }
        if !fractions.isEmpty { parts.append("fractions " + fractions.map { "\($0.x),\($0.y),\($0.width),\($0.height)" }.joined(separator: " ")) }
        return parts.joined(separator: "; ")
    }

    /// One mask or region and how many pixels of an image it covers.
    public struct Coverage: Sendable, Hashable {
        /// `mask NAME`, `region x,y,w,h` or `region x,y,w,h of the size` (fractions).
        public var name: String
        /// Pixels it covers, clipped to the image (overlaps with others counted in each).
        public var pixels: Int
    }

    /// Each mask and region with the pixels it covers of an image displayed `width` × `height`
    /// (a mask of another size covers none: ``resolved(width:height:)`` refuses it).
    public func coverage(width: Int, height: Int) -> [Coverage] {
        func clipped(_ r: Region) -> Int {
            max(0, min(width, r.x + r.width) - min(width, r.x)) * max(0, min(height, r.y + r.height) - min(height, r.y))
        }
        var out: [Coverage] = []
        if let m = maskImage {
            let covered = (try? IgnoredPixels(maskImage: m, maskName: maskName).resolved(width: width, height: height))??.count ?? 0
            out.append(Coverage(name: "mask \(maskName)", pixels: covered))
        }
        out += regions.map { Coverage(name: "region \($0)", pixels: clipped($0)) }
        out += fractions.map { Coverage(name: "region \($0.x),\($0.y),\($0.width),\($0.height) of the size",
                                        pixels: clipped($0.region(width: width, height: height))) }
        return out
    }

    /// The ignored pixels of an image displayed `width` × `height`; `nil` when nothing is ignored.
    /// - Throws: ``IgnoredPixelsError/wrongSize(mask:maskWidth:maskHeight:width:height:)`` when
    ///   the mask is not `width` × `height` as displayed.
    public func resolved(width: Int, height: Int) throws(IgnoredPixelsError) -> PixelMask? {
        guard !isEmpty else { return nil }
        var bits = [Bool](repeating: false, count: width * height)
        if let m = maskImage {
            let v = ValueImage(m, withAlpha: m.format.hasAlpha)
            guard v.width == width, v.height == height else {
                throw .wrongSize(mask: maskName, maskWidth: v.width, maskHeight: v.height, width: width, height: height)
            }
            let n = v.channels
            for p in 0..<(width * height) {
                let i = p * n
                if n == 4 {
                    bits[p] = v.sample(i + 3) > 0
                } else {
                    // Rec. 601 luma of the straight samples, > 0 exactly when any channel is > 0.
                    bits[p] = v.sample(i) > 0 || v.sample(i + 1) > 0 || v.sample(i + 2) > 0
                }
            }
        }
        for r in regions + fractions.map({ $0.region(width: width, height: height) }) where r.x < width && r.y < height {
            for y in r.y..<min(height, r.y + r.height) {
                for x in r.x..<min(width, r.x + r.width) { bits[y * width + x] = true }
            }
        }
        return PixelMask(width: width, height: height, bits: bits)
    }
}

/// Which pixels of a `width` × `height` image are ignored, row by row.
public struct PixelMask: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// `width × height` flags, rows top to bottom; `true` = ignored.
    public let bits: [Bool]
    /// How many pixels are ignored.
    public let count: Int

    public init(width: Int, height: Int, bits: [Bool]) {
        precondition(bits.count == width * height, "a mask has width × height flags")
        self.width = width
        self.height = height
        self.bits = bits
        self.count = bits.count { $0 }
    }
}

/// Why pixels to ignore cannot be used (exit status 2).
public enum IgnoredPixelsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A region that is not `x,y,w,h` (x, y ≥ 0; w, h ≥ 1).
    case badRegion(String)
    /// A mask file that cannot be read or decoded.
    case unreadableMask(String, DecodeError)
    /// A mask whose size is not the compared images' displayed size.
    case wrongSize(mask: String, maskWidth: Int, maskHeight: Int, width: Int, height: Int)

    public var description: String {
        switch self {
        case .unreadableMask(let path, let error): return "the mask \(path): \(error)"
        case .badRegion(let text) where text.hasPrefix("fraction "):
            return "the region \(text.dropFirst(9)): give x,y,w,h as fractions of the size (x, y ≥ 0; w, h > 0; x + w, y + h ≤ 1)"
        case .badRegion(let text): return "--ignore '\(text)': give x,y,w,h in pixels (x, y ≥ 0; w, h ≥ 1)"
        case .wrongSize(let name, let mw, let mh, let w, let h):
            return "the mask \(name) is \(mw)×\(mh), the compared images are \(w)×\(h) as displayed; a mask must have their size"
        }
    }
}
