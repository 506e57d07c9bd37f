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
}

extension ImageCodecs {
    /// Reads every row of the file at `path` through ``rowReader(path:options:)`` into a band of
    /// `bandRows` rows and discards them: the cost of decoding a file in bounded memory, with
    /// nothing else (the scale profile's cost floor, `imglab decode`).
    /// - Throws: ``DecodeError`` as ``rowReader(path:options:)``, or when the rows end early.
    public static func drainRows(path: String, options: DecodeOptions = DecodeOptions(), bandRows: Int = 16) throws(DecodeError) -> RowDrain {
        let reader = try rowReader(path: path, options: options)
        let rowBytes = reader.format.minimumBytesPerRow(width: reader.width)
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
            }
            rows += n
        }
        guard rows == reader.height else {
            throw .truncated(reader.container, reason: "\(rows) of \(reader.height) rows delivered", offset: nil)
        }
        return RowDrain(container: reader.container, width: reader.width, height: reader.height, format: reader.format, rows: rows, checksum: hash)
    }
}
