import CommandLineOptions
import ImageResize

/// `imglab thumbnail IN --max-pixel-size N -o OUT`: the ImageIO thumbnail contract.
enum ThumbnailCommand: Command {
    static let name = "thumbnail"
    static let summary = "ImageIO-style thumbnail: upright, longest side ≤ N, never enlarged, shrink-on-load"
    static let positionals = ResizeCommand.positionals
    static let maxPixelSize = Option.integer("--max-pixel-size", "N", "longest side of the result, in pixels",
        default: 0, in: 1...1_000_000).optional().required()
    static let options: [any OptionDeclaration] = [maxPixelSize, ResizeCommand.quality, ResizeCommand.kernel,
        ResizeCommand.srgb, ResizeCommand.linear, ResizeCommand.colour, WastefulResize.option] + ImageOutput.options
    static let help = Help(about: """
        Makes an upright thumbnail whose longer side is at most N pixels, never enlarging (the
        kCGImageSourceThumbnailMaxPixelSize contract with the transform applied), always from the image
        itself: an EXIF thumbnail the file embeds is never returned (ImageIO's ...FromImageAlways; info lists
        it). JPEGs are decoded at 1/2, 1/4 or 1/8 scale in the DCT domain when that still leaves N pixels.
        JPEG, non-interlaced PNG, uncompressed BMP and most TIFF stream from the file a few rows at a time, so
        memory does not grow with the input; interlaced PNG, APNG, GIF, run-length BMP and TIFF read through
        libtiff's RGBA interface are decoded whole first (within the decode limits).
        """, exitStatus: "  0 written, 1 the input could not be read or the output written, 2 a usage error",
        examples: ["imglab thumbnail IMG_0001.jpg --max-pixel-size 640 -o thumb.jpg"], docs: "docs/thumbnail.md")

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        let output = try ImageOutput.parse(args, inputs: args.positionals)
        let request = FileResizeRequest(input: args.positionals[0], output: output.path, container: output.container,
                                        encoding: output.encoding,
                                        size: .maxPixelSize(try args.value(maxPixelSize) ?? 1),
                                        options: try ResizeCommand.resizeOptions(args), limits: output.limits)
        return try WastefulResize.write(request, args, command: name)
    }
}
