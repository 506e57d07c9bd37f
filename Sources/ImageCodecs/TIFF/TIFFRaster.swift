import ImageCore

/// The decoded sample bytes of one IFD as libtiff delivers them, strips and tiles assembled:
/// `planeCount` planes (1 when contiguous, SamplesPerPixel when PlanarConfiguration = 2), each
/// `height` rows of `rowBytes`. Rows start on a byte boundary; samples narrower than a byte are
/// packed most significant bit first; 16- and 32-bit samples are in host byte order.
struct TIFFRaster {
    var bytes: [UInt8]
    let planeCount: Int
    let samplesPerPlane: Int
    let rowBytes: Int
    let height: Int

    var planeBytes: Int { rowBytes * height }

    /// Reads every strip or tile of the current IFD, spending the buffers from `limits`.
    static func read(_ reader: TIFFReader, _ d: TIFFDirectory, limits: inout DecodeLimits) throws(DecodeError) -> TIFFRaster {
        let planeCount = d.isPlanar ? d.samplesPerPixel : 1
        let samplesPerPlane = d.isPlanar ? 1 : d.samplesPerPixel
        guard let rowBits = product(d.width, samplesPerPlane, d.bitsPerSample),
              let total = product(bytes(bits: rowBits), d.height, planeCount) else {
            throw .limitExceeded(.bytes, requested: .max, allowed: limits.maxBytes)
        }
        let rowBytes = bytes(bits: rowBits)
        if !d.isTiled, d.scanlineSize != rowBytes {
            throw .malformed(.tiff, reason: "libtiff's row size \(d.scanlineSize) differs from the \(rowBytes) bytes that \(d.width) × \(samplesPerPlane) samples of \(d.bitsPerSample) bits need", offset: nil)
        }
        try limits.reserve(bytes: total)
        var raster = TIFFRaster(bytes: [UInt8](repeating: 0, count: total), planeCount: planeCount,
                                samplesPerPlane: samplesPerPlane, rowBytes: rowBytes, height: d.height)
        if d.isTiled {
            try raster.readTiles(reader, d, limits: &limits)
        } else {
            try raster.readStrips(reader, d)
        }
        return raster
    }

    /// Strips hold whole rows, so each decodes straight into its place.
    private mutating func readStrips(_ reader: TIFFReader, _ d: TIFFDirectory) throws(DecodeError) {
        guard d.rowsPerStrip > 0 else { throw .malformed(.tiff, reason: "RowsPerStrip is 0", offset: nil) }
        let rowsPerStrip = min(d.rowsPerStrip, height)
        let stripsPerPlane = (height + rowsPerStrip - 1) / rowsPerStrip
        guard d.stripCount >= stripsPerPlane * planeCount else {
            throw .malformed(.tiff, reason: "\(d.stripCount) strips for \(planeCount) plane(s) of \(stripsPerPlane) strips of \(rowsPerStrip) rows", offset: nil)
        }
        let rowBytes = self.rowBytes, planeBytes = self.planeBytes, height = self.height
        var failure: DecodeError?
        bytes.withUnsafeMutableBytes { buffer in
            for plane in 0..<planeCount {
                for strip in 0..<stripsPerPlane {
                    let rows = min(rowsPerStrip, height - strip * rowsPerStrip)
                    let start = plane * planeBytes + strip * rowsPerStrip * rowBytes
                    let wanted = rows * rowBytes
                    let index = plane * stripsPerPlane + strip
                    do throws(DecodeError) {
                        try Self.checkUncompressedSize(reader, d, index: index, needs: wanted, what: "strip")
                        let n = try reader.readStrip(index, into: UnsafeMutableRawBufferPointer(rebasing: buffer[start..<(start + wanted)]))
                        guard n >= wanted else {
                            throw .truncated(.tiff, reason: "strip \(index) decoded to \(n) bytes, \(rows) rows need \(wanted)", offset: nil)
                        }
                    } catch {
                        failure = error
                        return
                    }
                }
            }
        }
        if let failure { throw failure }
    }

    /// Tiles cover rectangles (edge tiles padded past the image), so each goes through a tile buffer.
    private mutating func readTiles(_ reader: TIFFReader, _ d: TIFFDirectory, limits: inout DecodeLimits) throws(DecodeError) {
        guard d.tileWidth > 0, d.tileLength > 0 else {
            throw .malformed(.tiff, reason: "tile size \(d.tileWidth)×\(d.tileLength) is empty", offset: nil)
        }
        guard let tileRowBits = Self.product(d.tileWidth, samplesPerPlane, d.bitsPerSample),
              let tileBytes = Self.product(Self.bytes(bits: tileRowBits), d.tileLength) else {
            throw .limitExceeded(.bytes, requested: .max, allowed: limits.maxBytes)
        }
        let tileRowBytes = Self.bytes(bits: tileRowBits)
        guard tileRowBytes == d.tileRowSize else {
            throw .malformed(.tiff, reason: "libtiff's tile row size \(d.tileRowSize) differs from the \(tileRowBytes) bytes that \(d.tileWidth) × \(samplesPerPlane) samples of \(d.bitsPerSample) bits need", offset: nil)
        }
        guard tileRowBits % 8 == 0 else {
            throw .unsupported(.tiff, feature: "tile width \(d.tileWidth) that does not fill whole bytes (TIFF requires a multiple of 16)")
        }
        let across = (d.width + d.tileWidth - 1) / d.tileWidth
        let down = (height + d.tileLength - 1) / d.tileLength
        guard d.tileCount >= across * down * planeCount else {
            throw .malformed(.tiff, reason: "\(d.tileCount) tiles for \(planeCount) plane(s) of \(across)×\(down) tiles", offset: nil)
        }
        try limits.reserve(bytes: tileBytes)
        var tile = [UInt8](repeating: 0, count: tileBytes)
        let rowBytes = self.rowBytes, planeBytes = self.planeBytes, height = self.height
        for plane in 0..<planeCount {
            for ty in 0..<down {
                for tx in 0..<across {
                    let index = (plane * down + ty) * across + tx
                    try Self.checkUncompressedSize(reader, d, index: index, needs: tileBytes, what: "tile")
                    let decoded = tile.withUnsafeMutableBytes { buffer in
                        Result { () throws(DecodeError) -> Int in try reader.readTile(index, into: buffer) }
                    }
                    let n = try decoded.get()
                    guard n >= tileBytes else {
                        throw .truncated(.tiff, reason: "tile \(index) decoded to \(n) bytes, expected \(tileBytes)", offset: nil)
                    }
                    let xByte = tx * tileRowBytes
                    let count = min(tileRowBytes, rowBytes - xByte)
                    let rows = min(d.tileLength, height - ty * d.tileLength)
                    bytes.withUnsafeMutableBytes { destination in
                        tile.withUnsafeBytes { source in
                            for r in 0..<rows {
                                let to = plane * planeBytes + (ty * d.tileLength + r) * rowBytes + xByte
                                let from = r * tileRowBytes
                                destination[to..<(to + count)].copyBytes(from: source[from..<(from + count)])
                            }
                        }
                    }
                }
            }
        }
    }

    /// For uncompressed data libtiff reads the rows a strip should hold whatever its byte count
    /// says, so a short strip would silently take in the bytes after it: refuse it instead.
    static func checkUncompressedSize(_ reader: TIFFReader, _ d: TIFFDirectory, index: Int,
                                              needs: Int, what: String) throws(DecodeError) {
        guard d.compression == TIFFTag.compressionNone else { return }
        let stored = try reader.storedByteCount(index)
        guard stored >= needs else {
            throw .truncated(.tiff, reason: "\(what) \(index) holds \(stored) bytes (its byte count), its rows need \(needs)", offset: nil)
        }
    }

    /// Whole bytes holding `bits` bits (without the overflow of `(bits + 7) / 8`).
    static func bytes(bits: Int) -> Int { bits / 8 + (bits % 8 == 0 ? 0 : 1) }

    /// The product of non-negative sizes, or `nil` on overflow.
    static func product(_ values: Int...) -> Int? {
        var result = 1
        for v in values {
            guard v >= 0 else { return nil }
            let (p, overflow) = result.multipliedReportingOverflow(by: v)
            if overflow { return nil }
            result = p
        }
        return result
    }
}
