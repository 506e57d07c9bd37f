import CImageShim

/// The fast pixel path of ``PNGPixelDecoder``: the concatenated IDAT data inflated by libdeflate
/// in one call straight into the output array, then unfiltered in place (``PNGUnfilter``), with
/// no zero-fill and no row-by-row zlib calls.
///
/// It gives exactly the bytes libpng gives, or steps aside (returns `nil`) and lets the libpng
/// path decide, whose result or error message stays what the user sees. libpng has already
/// validated every chunk up to the first IDAT (`imglab_png_reader_open`) and the chunk walk
/// every CRC. The path steps aside when:
/// - the image is interlaced or has a gray/RGB tRNS colour key (libpng merges Adam7 passes and
///   expands the key to alpha; this path does neither);
/// - the row size from IHDR differs from the delivered format's (libpng then fails with its
///   own message);
/// - any chunk comes between the last IDAT and IEND, or IEND has data: libpng reads those in
///   `png_read_end` and may reject them (a misplaced critical chunk) or warn;
/// - the zlib header declares a window under 32 KiB and the stream inflates to more than the
///   window: zlib then refuses distances beyond the window ("invalid distance too far back"),
///   libdeflate does not check them (below the window size no distance can reach that far);
/// - libdeflate fails: bad data, an Adler-32 mismatch (libpng: "incorrect data check"), output
///   that ends early (libpng: "Not enough image data") or does not fit (libpng warns about the
///   extra data and succeeds);
/// - libdeflate stops before the end of the IDAT data (trailing bytes after the zlib stream:
///   libpng warns and succeeds);
/// - a row's filter type byte is over 4 (libpng: "bad adaptive filter value").
///
/// Known gap: libdeflate decodes a few codes zlib rejects — literal/length symbols 286 and 287
/// (as length 258), distance symbols 30 and 31, more than 286 / 30 code lengths in a dynamic
/// header, and a match after an empty distance code. No encoder writes them; a file crafted
/// with them (and correct CRCs) decodes here where libpng reports an error.
///
/// Padding bits: libpng leaves the unused low bits of a row's last byte (1/2/4-bit samples) as
/// they were in the zero-filled buffer, so they are cleared here after unfiltering (the filters
/// themselves work on the unmasked bytes, as libpng's previous-row buffer does).
enum PNGInflatedRows {
    /// The unfiltered rows, `height × rowBytes` bytes, or `nil` when the path steps aside.
    ///
    /// - Parameters:
    ///   - chunks: the file's chunk list (CRCs already checked).
    ///   - header: its IHDR.
    ///   - colorKey: whether libpng would expand a gray/RGB tRNS colour key.
    ///   - rowBytes: bytes of one delivered row.
    static func decode(_ chunks: PNGChunkList, header: PNGImageHeader, colorKey: Bool, rowBytes: Int) -> [UInt8]? {
        guard !header.interlaced, !colorKey, rowBytes > 0 else { return nil }
        let channels = header.colorType.channelCount
        let bitsPerPixel = channels * header.bitDepth
        let (rowBits, rowOverflow) = header.width.multipliedReportingOverflow(by: bitsPerPixel)
        guard !rowOverflow, (rowBits + 7) / 8 == rowBytes else { return nil }
        let (streamBytes, streamOverflow) = (rowBytes + 1).multipliedReportingOverflow(by: header.height)
        guard !streamOverflow else { return nil }

        guard let first = chunks.chunks.firstIndex(where: { $0.type == "IDAT" }) else { return nil }
        let end = chunks.chunks[first...].firstIndex { $0.type != "IDAT" } ?? chunks.chunks.endIndex
        guard end == chunks.chunks.count - 1, chunks.chunks[end].type == "IEND", chunks.chunks[end].data.isEmpty else {
            return nil
        }
        let idat = chunks.chunks[first..<end]
        // One IDAT is inflated where it lies; several are joined first (libdeflate needs one buffer).
        let compressed: ArraySlice<UInt8>
        if idat.count == 1 {
            compressed = idat[first].data
        } else {
            let total = idat.reduce(0) { $0 + $1.data.count }
            compressed = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
                guard let base = buffer.baseAddress else { return }
                for chunk in idat {
                    chunk.data.withUnsafeBufferPointer { part in
                        guard let from = part.baseAddress else { return }
                        (base + initialized).initialize(from: from, count: part.count)
                    }
                    initialized += chunk.data.count
                }
            }[...]
        }
        guard compressed.count >= 2 else { return nil }
        let window = 1 << (Int(compressed[compressed.startIndex] >> 4) + 8)
        guard window >= 32768 || streamBytes <= window else { return nil }

        guard let decompressor = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(decompressor) }
        var taken = false
        let pixels = [UInt8](unsafeUninitializedCapacity: streamBytes) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            var consumed = 0, produced = 0
            let result = compressed.withUnsafeBufferPointer { input in
                libdeflate_zlib_decompress_ex(decompressor, input.baseAddress, input.count,
                                              base, streamBytes, &consumed, &produced)
            }
            guard result == LIBDEFLATE_SUCCESS, consumed == compressed.count, produced == streamBytes else { return }
            let bytesPerPixel = max(1, bitsPerPixel / 8)
            guard PNGUnfilter.unfilter(base, height: header.height, rowBytes: rowBytes,
                                       bytesPerPixel: bytesPerPixel) == nil else { return }
            let usedBits = rowBits % 8
            if usedBits != 0 {
                let keep = UInt8(truncatingIfNeeded: 0xFF << (8 - usedBits))
                for y in 0..<header.height { base[y * rowBytes + rowBytes - 1] &= keep }
            }
            initialized = header.height * rowBytes
            taken = true
        }
        return taken ? pixels : nil
    }
}
