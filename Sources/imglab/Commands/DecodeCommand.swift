import CommandLineOptions
import ImageCodecs

/// `imglab decode FILE`: reads every row of a file in bounded memory and discards it; the cost
/// floor the scale profile measures a resizer against.
enum DecodeCommand: Command {
    static let name = "decode"
    static let summary = "read every row of an image (streaming where it can) and discard it: the decode cost alone"
    static let positionals = Positionals(synopsis: "FILE", count: 1...1, problem: "no file given")
    static let scale = Option.choice("--dct-scale", "1/N", "decode a JPEG at 1/N in the DCT domain, as a "
        + "shrink-on-load thumbnail does (other containers ignore it)",
                                     default: ("1/1", 1), [("1/2", 2), ("1/4", 4), ("1/8", 8)])
    static let averageTo = Option.parsed("--average-to", "WxH", "also add every delivered byte once into the cell of a "
        + "W×H grid it falls in (a box average): the least work a resizer to W×H does on top of decoding, which the "
        + "scale profile's floor includes") { text throws(UsageError) in
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...100_000).contains(w),
              (1...100_000).contains(h) else {
            throw UsageError("--average-to must be WxH with W and H in 1…100000, not '\(text)'")
        }
        return (width: w, height: h)
    }
    static let options: [any OptionDeclaration] = [scale, averageTo, SharedOptions.maxPixels, SharedOptions.maxMemory]
    static let help = Help(about: """
        Decodes FILE row by row into a small band and throws the rows away, so what it costs (time, peak
        memory) is the decoding alone: JPEG, non-interlaced PNG, uncompressed BMP and TIFF stream from the
        file; interlaced PNG, GIF, APNG and run-length BMP are decoded whole. Prints the delivered size, the
        pixel format and a checksum of the rows. 'imglab run --profile scale' runs it in a child process
        beside each resizer call: a correct shrink-on-load thumbnail costs little more than this floor.
        """, exitStatus: "  0 the file decoded, 1 it could not be decoded, 2 a usage error",
        examples: ["imglab decode photo.jpg --dct-scale 1/8", "imglab decode photo.jpg --dct-scale 1/8 --average-to "
            + "640x427", "/usr/bin/time -v imglab decode huge.png"], docs: "docs/thumbnail.md")

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        var options = DecodeOptions()
        options.limits.maxPixels = try args.value(SharedOptions.maxPixels)
        options.limits.maxBytes = try args.value(SharedOptions.maxMemory)
        options.jpegScaleDenominator = try args.value(scale)
        guard let path = args.positionals.first else { throw UsageError("no file given") }
        do {
            let rows = try ImageCodecs.drainRows(path: path, options: options, averagingTo: try args.value(averageTo))
            let mean = rows.averagedMean.map { String(format: ", mean byte %.3f", $0) } ?? ""
            print("\(path): \(rows.container) \(rows.width)×\(rows.height) \(rows.format), \(rows.rows) rows, "
                  + "checksum \(String(rows.checksum, radix: 16))" + mean)
            return .ok
        } catch {
            printError("imglab decode: \(path): \(error)")
            return .failure
        }
    }
}
