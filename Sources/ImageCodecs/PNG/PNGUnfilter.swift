/// Reversing PNG's per-row filters (PNG spec, 3rd ed., §9, filter method 0) in place, on the
/// inflated IDAT stream of a non-interlaced image.
///
/// The stream holds `height` rows of `1 + rowBytes` bytes: a filter type byte (0 None, 1 Sub,
/// 2 Up, 3 Average, 4 Paeth) and the filtered bytes. Row y is unfiltered from offset
/// y·(rowBytes + 1) + 1 to offset y·rowBytes of the same buffer, front to back, so the
/// unfiltered image ends up packed at the start with no second buffer: the destination of row y
/// starts y + 1 bytes before its source, so no byte is written before it is read, and the rows
/// above it, which Up, Average and Paeth read, are already in place. The filters work on bytes:
/// `bytesPerPixel` (bpp) = max(1, bits per pixel ÷ 8) is the distance to the byte "a" on the
/// left; "b" is the byte above, "c" the byte above-left, each 0 outside the image.
///
/// Sub, Average and Paeth are sequential from pixel to pixel. For 3- and 4-byte pixels (8-bit
/// RGB and RGBA) the kernels keep the left pixel in registers; the other widths read it back
/// from the row just written. Up is a plain byte loop that the vectorizer widens. Paeth's
/// predictor is computed with selects, not branches (``predictor(_:_:_:)``).
enum PNGUnfilter {
    /// Unfilters `height` rows in place (see the type's description).
    ///
    /// - Parameters:
    ///   - base: the inflated stream, `height × (rowBytes + 1)` bytes; on success its first
    ///     `height × rowBytes` bytes are the unfiltered rows.
    ///   - rowBytes: bytes of one unfiltered row (≥ 1).
    ///   - bytesPerPixel: bpp as defined above (1…8).
    /// - Returns: the index of the first row whose filter type byte is over 4, or `nil` when
    ///   every row was unfiltered. Rows after a bad one are left as they were.
    static func unfilter(_ base: UnsafeMutablePointer<UInt8>, height: Int, rowBytes: Int,
                         bytesPerPixel: Int) -> Int? {
        var zeroRow: [UInt8] = []
        for y in 0..<height {
            let filter = base[y * (rowBytes + 1)]
            let source = UnsafePointer(base + y * (rowBytes + 1) + 1)
            let row = base + y * rowBytes
            switch (filter, y) {
            case (0, _), (2, 0):
                // Up on the first row adds the zero row above: a copy. The regions overlap.
                UnsafeMutableRawPointer(row).copyMemory(from: source, byteCount: rowBytes)
            case (1, _), (4, 0):
                // Paeth with b = c = 0 always predicts a (|p − a| = 0): Sub.
                sub(row, source, count: rowBytes, bpp: bytesPerPixel)
            case (2, _):
                up(row, source, UnsafePointer(row - rowBytes), count: rowBytes)
            case (3, _):
                if y == 0, zeroRow.isEmpty { zeroRow = [UInt8](repeating: 0, count: rowBytes) }
                if y == 0 {
                    zeroRow.withUnsafeBufferPointer { zero in
                        guard let above = zero.baseAddress else { return }
                        average(row, source, above, count: rowBytes, bpp: bytesPerPixel)
                    }
                } else {
                    average(row, source, UnsafePointer(row - rowBytes), count: rowBytes, bpp: bytesPerPixel)
                }
            case (4, _):
                paeth(row, source, UnsafePointer(row - rowBytes), count: rowBytes, bpp: bytesPerPixel)
            default:
                return y
            }
        }
        return nil
    }

    /// Up (type 2): x + b, byte by byte; vectorized.
    @inline(never)
    static func up(_ row: UnsafeMutablePointer<UInt8>, _ source: UnsafePointer<UInt8>,
                   _ above: UnsafePointer<UInt8>, count: Int) {
        for i in 0..<count { row[i] = source[i] &+ above[i] }
    }

    /// Sub (type 1): x + a.
    @inline(never)
    static func sub(_ row: UnsafeMutablePointer<UInt8>, _ source: UnsafePointer<UInt8>, count: Int, bpp: Int) {
        switch bpp {
        case 3:
            var a0: UInt8 = 0, a1: UInt8 = 0, a2: UInt8 = 0
            var i = 0
            while i + 3 <= count {
                a0 = source[i] &+ a0; a1 = source[i + 1] &+ a1; a2 = source[i + 2] &+ a2
                row[i] = a0; row[i + 1] = a1; row[i + 2] = a2
                i += 3
            }
        case 4:
            var a0: UInt8 = 0, a1: UInt8 = 0, a2: UInt8 = 0, a3: UInt8 = 0
            var i = 0
            while i + 4 <= count {
                a0 = source[i] &+ a0; a1 = source[i + 1] &+ a1; a2 = source[i + 2] &+ a2; a3 = source[i + 3] &+ a3
                row[i] = a0; row[i + 1] = a1; row[i + 2] = a2; row[i + 3] = a3
                i += 4
            }
        default:
            let lead = min(bpp, count)
            for i in 0..<lead { row[i] = source[i] }
            var i = lead
            while i < count {
                row[i] = source[i] &+ row[i - bpp]
                i += 1
            }
        }
    }

    /// Average (type 3): x + ⌊(a + b) / 2⌋, the sum taken without overflow.
    @inline(never)
    static func average(_ row: UnsafeMutablePointer<UInt8>, _ source: UnsafePointer<UInt8>,
                        _ above: UnsafePointer<UInt8>, count: Int, bpp: Int) {
        let lead = min(bpp, count)
        for i in 0..<lead { row[i] = source[i] &+ (above[i] >> 1) }
        var i = lead
        while i < count {
            let mean = (UInt16(row[i - bpp]) + UInt16(above[i])) >> 1
            row[i] = source[i] &+ UInt8(truncatingIfNeeded: mean)
            i += 1
        }
    }

    /// Paeth (type 4): x + the one of a, b, c nearest to p = a + b − c, ties going to a, then b.
    @inline(never)
    static func paeth(_ row: UnsafeMutablePointer<UInt8>, _ source: UnsafePointer<UInt8>,
                      _ above: UnsafePointer<UInt8>, count: Int, bpp: Int) {
        switch bpp {
        case 3:
            // a and c start at 0 (left of the row), where the predictor is b.
            var a0 = 0, a1 = 0, a2 = 0, c0 = 0, c1 = 0, c2 = 0
            var i = 0
            while i + 3 <= count {
                let b0 = Int(above[i]), b1 = Int(above[i + 1]), b2 = Int(above[i + 2])
                a0 = (Int(source[i]) &+ predictor(a0, b0, c0)) & 0xFF
                a1 = (Int(source[i + 1]) &+ predictor(a1, b1, c1)) & 0xFF
                a2 = (Int(source[i + 2]) &+ predictor(a2, b2, c2)) & 0xFF
                row[i] = UInt8(truncatingIfNeeded: a0)
                row[i + 1] = UInt8(truncatingIfNeeded: a1)
                row[i + 2] = UInt8(truncatingIfNeeded: a2)
                c0 = b0; c1 = b1; c2 = b2
                i += 3
            }
        case 4:
            var a0 = 0, a1 = 0, a2 = 0, a3 = 0, c0 = 0, c1 = 0, c2 = 0, c3 = 0
            var i = 0
            while i + 4 <= count {
                let b0 = Int(above[i]), b1 = Int(above[i + 1]), b2 = Int(above[i + 2]), b3 = Int(above[i + 3])
                a0 = (Int(source[i]) &+ predictor(a0, b0, c0)) & 0xFF
                a1 = (Int(source[i + 1]) &+ predictor(a1, b1, c1)) & 0xFF
                a2 = (Int(source[i + 2]) &+ predictor(a2, b2, c2)) & 0xFF
                a3 = (Int(source[i + 3]) &+ predictor(a3, b3, c3)) & 0xFF
                row[i] = UInt8(truncatingIfNeeded: a0)
                row[i + 1] = UInt8(truncatingIfNeeded: a1)
                row[i + 2] = UInt8(truncatingIfNeeded: a2)
                row[i + 3] = UInt8(truncatingIfNeeded: a3)
                c0 = b0; c1 = b1; c2 = b2; c3 = b3
                i += 4
            }
        default:
            let lead = min(bpp, count)
            for i in 0..<lead { row[i] = source[i] &+ above[i] }
            var i = lead
            while i < count {
                let p = predictor(Int(row[i - bpp]), Int(above[i]), Int(above[i - bpp]))
                row[i] = source[i] &+ UInt8(truncatingIfNeeded: p)
                i += 1
            }
        }
    }

    /// The Paeth predictor of §9.4 for left `a`, above `b`, above-left `c` (each 0…255), in
    /// stb_image's branch-free form, equal to the spec's on all 256³ inputs (a test checks them
    /// all): with lo = min(a, b), hi = max(a, b) and t = 3c − (a + b), the spec picks hi when
    /// t ≤ lo, else lo when hi ≤ t, else c. Half the instructions of |p − a|, |p − b|, |p − c|.
    @inline(__always)
    static func predictor(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let threshold = c &* 3 &- (a &+ b)
        let lo = min(a, b), hi = max(a, b)
        let loOrC = hi <= threshold ? lo : c
        return threshold <= lo ? hi : loOrC
    }
}
