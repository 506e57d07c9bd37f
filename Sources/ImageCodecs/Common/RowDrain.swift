import ImageCore

/// What reading every row of a file delivered (``ImageCodecs/drainRows(path:options:bandRows:)``).
public struct RowDrain: Sendable, Hashable {
    /// The container read.
    public var container: ContainerFormat
    /// Width and height of the delivered rows, in pixels (the DCT-scaled size for a JPEG read at
    /// 1/N).
    public var width: Int, height: Int
    /// The pixel format of the delivered rows.
    public var format: PixelFormat
    /// Rows delivered (equals `height` for a complete file).
    public var rows: Int
    /// FNV-1a 64-bit hash of the first 16 bytes of every delivered row: proof the rows were
    /// delivered, at a cost far below the decoding's.
    public var checksum: UInt64
    /// With an averaging size: the mean of the byte values over every cell (each delivered byte
    /// added once into the output cell it falls in), a figure that depends on every byte.
    public var averagedMean: Double?
}

extension ImageCodecs {
    /// Reads every row of the file at `path` through ``rowReader(path:options:)`` into a band of
    /// `bandRows` rows and discards them: the cost of decoding a file in bounded memory, with
    /// nothing else (`imglab decode`).
    ///
    /// With `averagingTo`, every delivered byte is also added once into the cell of a
    /// `width × height` grid it falls in (a box average of the byte values, interleaved samples
    /// and all): the least work any resizer does on top of decoding, since each delivered sample
    /// must reach the output. The scale profile's cost floor is this, at the DCT scale a correct
    /// shrink-on-load uses.
    /// - Throws: ``DecodeError`` as ``rowReader(path:options:)``, or when the rows end early.
    public static func drainRows(path: String, options: DecodeOptions = DecodeOptions(), bandRows: Int = 16,
                                 averagingTo grid: (width: Int, height: Int)? = nil) throws(DecodeError) -> RowDrain {
        let reader = try rowReader(path: path, options: options)
        let rowBytes = reader.format.minimumBytesPerRow(width: reader.width)
        let cellsWide = max(1, grid?.width ?? 1), cellsHigh = max(1, grid?.height ?? 1)
        // The output column of each byte of a row, and a sum per cell.
        let bytesPerPixel = max(1, rowBytes / max(1, reader.width))
        let columnOfByte = grid == nil ? [] : (0..<rowBytes).map { min(cellsWide - 1, ($0 / bytesPerPixel) * cellsWide / max(1, reader.width)) }
        var sums = [Double](repeating: 0, count: grid == nil ? 0 : cellsWide * cellsHigh)
        var rowSums = [UInt64](repeating: 0, count: grid == nil ? 0 : cellsWide)
        let band = max(1, bandRows)
        var buffer = [UInt8](repeating: 0, count: rowBytes * band)
        var rows = 0
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        while true {
            let read = buffer.withUnsafeMutableBytes { b -> Result<Int, DecodeError> in
                do throws(DecodeError) { return .success(try reader.readRows(into: b, stride: rowBytes, count: band)) } catch { return .failure(error) }
            }
            let n = try read.get()
            if n == 0 { break }
            for row in 0..<n {
                for byte in buffer[(row * rowBytes)..<(row * rowBytes + min(rowBytes, 16))] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
                guard grid != nil else { continue }
                let cellRow = min(cellsHigh - 1, (rows + row) * cellsHigh / max(1, reader.height)) * cellsWide
                buffer.withUnsafeBufferPointer { b in
                    columnOfByte.withUnsafeBufferPointer { columns in
                        rowSums.withUnsafeMutableBufferPointer { acc in
                            let start = row * rowBytes
                            for i in 0..<rowBytes { acc[columns[i]] &+= UInt64(b[start + i]) }
                        }
                    }
                }
                for c in 0..<cellsWide {
                    sums[cellRow + c] += Double(rowSums[c])
                    rowSums[c] = 0
                }
            }
            rows += n
        }
        guard rows == reader.height else {
            throw .truncated(reader.container, reason: "\(rows) of \(reader.height) rows delivered", offset: nil)
        }
        let total = Double(rowBytes) * Double(rows)
        let mean = grid == nil || total == 0 ? nil : sums.reduce(0, +) / total
        return RowDrain(container: reader.container, width: reader.width, height: reader.height, format: reader.format, rows: rows,
                        checksum: hash, averagedMean: mean)
    }
}
