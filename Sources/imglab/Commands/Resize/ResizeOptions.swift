import CommandLineOptions
import ImageCodecs
import ImageResize

/// The options of `imglab resize`, declared once (spellings, placeholder, help line, default,
/// validation), and the prose of its `--help`.
extension ResizeCommand {
    static let size = Option.parsed("--size", "WxH", "the box in points; pixels when --scale is 1; the box in pixels "
        + "\(OutputLimits.summary)") { text throws(UsageError) in
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let w = parts[0], let h = parts[1], w > 0, h > 0 else {
            throw UsageError("--size needs WxH with positive integers, not '\(text)'")
        }
        guard w <= OutputLimits.maxDimension, h <= OutputLimits.maxDimension else {
            throw UsageError("--size \(text) is beyond the output limit: \(OutputLimits.summary)")
        }
        return (width: Double(w), height: Double(h))
    }
    static let mode = Option<@Sendable (Anchor) -> ContentMode>.choice("--mode", "MODE", "stretch to the box, fit "
        + "inside it, fill it (cover, crop at --anchor), or cover it without cropping",
        default: ("scaleToFill", { _ in .scaleToFill }), [("aspectFit", { _ in .aspectFit }),
            ("aspectFill", { .aspectFill(anchor: $0) }), ("aspectFillWithoutCrop", { _ in .aspectFillWithoutCrop })],
        // The names of the manifest's first version, which older configs still send.
        aliases: [("stretch", { _ in .scaleToFill }), ("fit", { _ in .aspectFit }),
            ("fill", { .aspectFill(anchor: $0) }), ("fill-no-crop", { _ in .aspectFillWithoutCrop })])
        .meaning("the content mode of a resize")
    static let anchor = Option.choice("--anchor", "A", "where aspectFill crops", default: ("center", Anchor.center),
        [("top", .top), ("bottom", .bottom), ("left", .left), ("right", .right)], aliases: [("centre", .center)])
    static let onlyShrink = Option.flag("--only-shrink", "never enlarge an image that already fits")
    static let crop = rectangle("--crop", "crop this rectangle first; fractional edges: origin down, far edge up")
    static let fromRect = rectangle("--from-rect", "scale exactly this (fractional) rectangle of the upright image to "
        + "--size, ignoring aspect, as CoreGraphics' scaleToFill(from:in:)").meaning("scale exactly this rectangle of "
        + "the upright image to --size")
    static let addAlpha = Option.flag("--add-alpha", "give the output an alpha channel, opaque where it had none")
    static let quality = Option<InterpolationQuality?>.choice("--quality", "Q", "Quartz's interpolation quality: the "
        + "nearest, triangle, Catmull-Rom or Lanczos 3 kernel, in order; Lanczos 3 when not given",
        InterpolationQuality.allCases.map { ($0.rawValue, $0) })
    static let kernel = Option<Kernel?>.choice("--kernel", "K", "the resampling kernel, over --quality",
        Kernel.presets.map { ($0.name, $0) }, ignoringCase: true)
    static let srgb = Option.flag("--srgb", "average gamma-encoded values instead of linear light")
    static let linear = Option.flag("--linear", "average in linear light (the default)")
    static let colour = Option.choice("--colour", "MODE", "a file with an ICC profile other than sRGB: keep it "
        + "(averaged in its own linear light) or convert the result to sRGB", default: ("keep", ResizeColour.keep),
        [("srgb", .srgb)]).meaning("how colours stated by ICC profiles are treated")
    static let border = Option.integer("--transparent-border", "N", "add a transparent border N pixels "
        + "wide", default: 0, in: 0...10_000)
        .alsoSpelled("--border")
    static let cornerRadius = Option.number("--rounded-corners", "R", "round the corners with radius R points, "
        + "antialiased, transparent outside",
                default: 0, atLeast: 0, atMost: Double(OutputLimits.maxDimension)).alsoSpelled("--corner-radius")
    static let scale = Option.number("--scale", "S", "points-to-pixels factor (2 for @2x): multiplies the box and the "
        + "radius", default: 1, atLeast: 0.01, atMost: 1000)

    static let help = Help(about: """
        Resizes IN (any PNG, JPEG, GIF, TIFF, BMP; animated GIF/APNG frame by frame) and writes OUT.
        The EXIF/TIFF orientation is applied first, so OUT is always upright. Resampling is done on
        premultiplied values, in linear light unless --srgb. Sizes follow one rule: the constrained
        side equals the box, the other is the exact ratio rounded half up, at least 1 pixel.
        JPEG, non-interlaced PNG, uncompressed BMP and most TIFF stream from the file a few rows
        (a strip, a row of tiles) at a time, so memory does not grow with the input; interlaced PNG,
        APNG, GIF, run-length BMP and TIFF read through libtiff's RGBA interface (YCbCr, Lab,
        JPEG-in-TIFF) are decoded whole first, within the decode limits. A JPEG --size resize is
        decoded at 1/2, 1/4 or 1/8 in the DCT domain when that still leaves at least a factor of two
        for the resample (shrink-on-load).
        """, exitStatus: "  0 written, 1 the input could not be read or resized or the output written, 2 a usage error",
        examples: ["imglab resize photo.jpg --size 640x640 --mode aspectFit -o photo-640.jpg",
                   "imglab resize icon.png --size 60x60 --scale 3 --mode aspectFill --rounded-corners 12 -o i@3x.png",
                   "imglab resize anim.gif --size 100x100 --mode aspectFit -o small.gif"],
        docs: "docs/resize.md")
}
