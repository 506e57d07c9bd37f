import Testing
import ImageCore

/// The eight EXIF orientations form the dihedral group of the square and match the EXIF table
/// (shared/research/resizer-anchors.md §4.2).
@Suite("Orientation")
struct OrientationTests {
    /// A 3×2 RGB8 image whose pixels are all distinct: pixel (x, y) has red = 10·x + y.
    static let sample: Bitmap = {
        var bytes: [UInt8] = []
        for y in 0..<2 { for x in 0..<3 { bytes += [UInt8(10 * x + y), 0, 0] } }
        // A fixed, valid literal: cannot fail.
        return try! Bitmap(width: 3, height: 2, format: .rgb8, bytes: bytes)
    }()

    /// red value of displayed pixel (x, y)
    static func value(_ b: Bitmap, _ x: Int, _ y: Int) -> UInt8 { b.bytes[y * b.bytesPerRow + x * 3] }

    /// The operation the EXIF table names for each value, written independently as index formulas on a
    /// w×h stored image: displayed (x, y) ← stored (sx, sy).
    static func tableOperation(_ exif: Int, w: Int, h: Int) -> (Int, Int) -> (Int, Int) {
        switch exif {
        case 1: return { x, y in (x, y) }                      // none
        case 2: return { x, y in (w - 1 - x, y) }              // flip left-right (Flop)
        case 3: return { x, y in (w - 1 - x, h - 1 - y) }      // rotate 180
        case 4: return { x, y in (x, h - 1 - y) }              // flip top-bottom (Flip)
        case 5: return { x, y in (y, x) }                      // transpose
        case 6: return { x, y in (y, h - 1 - x) }              // rotate 90° clockwise
        case 7: return { x, y in (w - 1 - y, h - 1 - x) }      // transverse
        default: return { x, y in (w - 1 - y, x) }             // 8: rotate 90° counter-clockwise
        }
    }

    @Test("apply performs the operation of the EXIF table", arguments: Orientation.allCases)
    func applyMatchesTable(o: Orientation) {
        let out = o.apply(to: Self.sample)
        let swaps = o.exifValue >= 5
        #expect((out.width, out.height) == (swaps ? 2 : 3, swaps ? 3 : 2))
        let op = Self.tableOperation(o.exifValue, w: 3, h: 2)
        for y in 0..<out.height {
            for x in 0..<out.width {
                let (sx, sy) = op(x, y)
                #expect(Self.value(out, x, y) == UInt8(10 * sx + sy), "orientation \(o.exifValue) at (\(x), \(y))")
            }
        }
    }

    @Test("display size swaps width and height exactly for 5–8", arguments: Orientation.allCases)
    func displaySize(o: Orientation) {
        let size = o.displaySize(width: 30, height: 20)
        #expect(o.swapsDimensions == (o.exifValue >= 5))
        #expect(size == (o.exifValue >= 5 ? (20, 30) : (30, 20)))
    }

    @Test("displayPoint agrees with apply for every pixel", arguments: Orientation.allCases)
    func displayPointAgreesWithApply(o: Orientation) {
        let out = o.apply(to: Self.sample)
        for y in 0..<2 {
            for x in 0..<3 {
                let d = o.displayPoint(x: x, y: y, width: 3, height: 2)
                #expect(Self.value(out, d.x, d.y) == UInt8(10 * x + y))
            }
        }
    }

    @Test("the group is closed, associative, has identity 1 and inverses")
    func groupLaws() {
        let all = Orientation.allCases
        for a in all {
            #expect(a.followed(by: .up) == a)
            #expect(Orientation.up.followed(by: a) == a)
            #expect(a.followed(by: a.inverse) == .up)
            #expect(a.inverse.followed(by: a) == .up)
            for b in all {
                for c in all {
                    #expect(a.followed(by: b).followed(by: c) == a.followed(by: b.followed(by: c)))
                }
            }
        }
        // 8 elements, non-abelian: rotation then mirror differs from mirror then rotation.
        #expect(Orientation.right.followed(by: .upMirrored) != Orientation.upMirrored.followed(by: .right))
    }

    @Test("composition equals applying the transforms one after the other")
    func compositionMatchesPixels() {
        for a in Orientation.allCases {
            for b in Orientation.allCases {
                let twice = b.apply(to: a.apply(to: Self.sample))
                let once = a.followed(by: b).apply(to: Self.sample)
                #expect(twice == once, "\(a.exifValue) then \(b.exifValue)")
            }
        }
    }

    @Test("inverses follow the EXIF table: 6 and 8 undo each other, the others are involutions")
    func inverses() {
        #expect(Orientation.right.inverse == .left)
        #expect(Orientation.left.inverse == .right)
        for o in [Orientation.up, .upMirrored, .down, .downMirrored, .leftMirrored, .rightMirrored] {
            #expect(o.inverse == o)
        }
        // Mirrored orientations are 2, 4, 5, 7.
        #expect(Orientation.allCases.filter(\.isMirrored).map(\.exifValue) == [2, 4, 5, 7])
    }

    @Test("Apple names match CGImagePropertyOrientation")
    func appleNames() {
        #expect(Orientation.allCases.map(\.description) ==
                ["up", "upMirrored", "down", "downMirrored", "leftMirrored", "right", "rightMirrored", "left"])
    }

    @Test("EXIF values outside 1…8 are not orientations")
    func outOfRange() {
        #expect(Orientation(exifValue: 0) == nil)
        #expect(Orientation(exifValue: 9) == nil)
    }

    @Test("orienting packed 1-bit pixels moves single bits")
    func packedBits() throws {
        // 3×2, 1-bit gray: row 0 = 1 0 0, row 1 = 0 0 1 (MSB first, rows padded to a byte).
        let b = try Bitmap(width: 3, height: 2, format: PixelFormat(colorModel: .gray, bitsPerComponent: 1), bytes: [0b1000_0000, 0b0010_0000])
        let rotated = Orientation.right.apply(to: b)   // 2×3
        #expect((rotated.width, rotated.height) == (2, 3))
        // rotate 90° CW: displayed (x, y) ← stored (y, h−1−x) with h = 2.
        let expected: [[Int]] = (0..<3).map { y in (0..<2).map { x in
            let (sx, sy) = (y, 1 - x)
            return [[1, 0, 0], [0, 0, 1]][sy][sx]
        } }
        for y in 0..<3 {
            for x in 0..<2 {
                let bit = Int(rotated.bytes[y * rotated.bytesPerRow] >> (7 - x)) & 1
                #expect(bit == expected[y][x])
            }
        }
    }
}
