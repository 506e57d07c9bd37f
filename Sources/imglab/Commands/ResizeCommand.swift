import Foundation
import ImageCore
import ImageCodecs
import ImageResize

/// `imglab resize IN -o OUT`: every operation of the resizer from the command line.
enum ResizeCommand: Command {
    static let name = "resize"
    static let summary = "resize, crop, add a transparent border and rounded corners; output is upright"
    static let help = """
    USAGE: imglab resize IN -o OUT [--size WxH] [--mode MODE] [options]

    Resizes IN (any PNG, JPEG, GIF, TIFF, BMP; animated GIF/APNG frame by frame) and writes OUT.
    The EXIF/TIFF orientation is applied first, so OUT is always upright. Resampling is done on
    premultiplied values, in linear light unless --srgb. Sizes follow one rule: the constrained
    side equals the box, the other is the exact ratio rounded half up, at least 1 pixel.

    OPTIONS:
      --size WxH             the box in points (pixels when --scale is 1, the default)
      --mode MODE            scaleToFill (default), aspectFit, aspectFill (cover and crop),
                             aspectFillWithoutCrop
      --anchor A             where aspectFill crops: center (default), top, bottom, left, right
      --only-shrink          never enlarge an image that already fits
      --crop X,Y,W,H         crop this rectangle first (fractional edges: origin down, far edge up)
      --from-rect X,Y,W,H    scale exactly this (fractional) rectangle of the upright image to
                             --size, ignoring aspect (CoreGraphics' scaleToFill(from:in:))
      --add-alpha            give the output an alpha channel (opaque where the input had none)
      --quality Q            none, low, medium, high (nearest, triangle, catmull-rom, lanczos3)
      --kernel K             nearest, triangle, catmull-rom, mitchell, lanczos3 (overrides --quality)
      --srgb                 average gamma-encoded values instead of linear light
      --transparent-border N
                             add a transparent border N pixels wide
      --rounded-corners R    round the corners with radius R pixels (antialiased, transparent outside)
      --scale S              points-to-pixels factor (2 for @2x): the box is multiplied by S
    \(ImageOutput.helpText)

    Also read: --border (as --transparent-border), --corner-radius (as --rounded-corners), and
    the modes stretch, fit, fill, fill-no-crop (as scaleToFill, aspectFit, aspectFill,
    aspectFillWithoutCrop).

    EXAMPLES:
      imglab resize photo.jpg --size 640x640 --mode aspectFit -o photo-640.jpg
      imglab resize icon.png --size 60x60 --scale 3 --mode aspectFill --rounded-corners 12 -o icon@3x.png
      imglab resize anim.gif --size 100x100 --mode aspectFit -o small.gif
    """

    static func run(_ argv: [String]) throws(UsageError) -> ExitStatus {
        let args = try Arguments(argv, valued: ImageOutput.valuedOptions.union(["--size", "--mode", "--anchor", "--crop", "--from-rect", "--quality", "--kernel", "--transparent-border", "--rounded-corners", "--border", "--corner-radius", "--scale"]),
                                 flags: ["--srgb", "--linear", "--only-shrink", "--add-alpha"])
        if args.flag("--help") { print(help); return .ok }
        guard args.positionals.count == 1, let input = args.positionals.first else { throw UsageError("give exactly one input file") }
        let output = try ImageOutput(args)
        var options = try resizeOptions(args)
        options.straightAlpha = !output.container.storesPremultipliedAlpha
        let scale = try double(args, "--scale", default: 1, min: 0.01)
        let border = try args.int(args.value("--transparent-border") == nil ? "--border" : "--transparent-border", default: 0, in: 0...10_000)
        let radius = try double(args, args.value("--rounded-corners") == nil ? "--corner-radius" : "--rounded-corners", default: 0, min: 0)

        // Only a box: resize straight from the file, streaming rows where the container allows.
        if let size = args.value("--size"), args.value("--crop") == nil, args.value("--from-rect") == nil,
           !args.flag("--add-alpha"), border == 0, radius == 0 {
            let box = try parseSize(size)
            let pixels = (Int((Double(box.0) * scale).rounded()), Int((Double(box.1) * scale).rounded()))
            let contentMode = try mode(args)
            do {
                var image = try FileResize.resized(path: input, width: pixels.0, height: pixels.1, contentMode: contentMode, options: options)
                image.metadata.scale = scale
                return output.write(image, command: name)
            } catch {
                printError("imglab resize: \(input): \(error)"); return .failure
            }
        }
        var image: Image
        do { image = try ImageCodecs.decode(contentsOf: input) } catch {
            printError("imglab resize: \(input): \(error)"); return .failure
        }
        do {
            if let crop = args.value("--crop") {
                let v = crop.split(separator: ",").compactMap { Double($0) }
                guard v.count == 4 else { throw UsageError("--crop needs X,Y,W,H") }
                image = try image.cropped(to: Rect(x: v[0], y: v[1], width: v[2], height: v[3]))
            }
            if let rect = args.value("--from-rect") {
                let v = rect.split(separator: ",").compactMap { Double($0) }
                guard v.count == 4 else { throw UsageError("--from-rect needs X,Y,W,H") }
                guard let size = args.value("--size") else { throw UsageError("--from-rect needs --size WxH") }
                let box = try parseSize(size)
                let pixels = (Int((Double(box.0) * scale).rounded()), Int((Double(box.1) * scale).rounded()))
                image = try image.scaledToFill(from: Rect(x: v[0], y: v[1], width: v[2], height: v[3]),
                                               width: pixels.0, height: pixels.1, options: options)
                image.metadata.scale = scale
            } else if let size = args.value("--size") {
                let box = try parseSize(size)
                let pixels = (Int((Double(box.0) * scale).rounded()), Int((Double(box.1) * scale).rounded()))
                image = try image.resized(width: pixels.0, height: pixels.1, contentMode: try mode(args), options: options)
                image.metadata.scale = scale
            }
            if border > 0 || radius > 0 {
                image = try image.roundedCorners(radius: radius * scale, border: border, options: options)
            }
            if args.flag("--add-alpha") {
                image = try image.oriented().addingAlpha()
            }
            if args.value("--size") == nil && args.value("--crop") == nil && border == 0 && radius == 0 && !args.flag("--add-alpha") {
                image = image.oriented()
            }
        } catch let error as ResizeError {
            printError("imglab resize: \(error)"); return .failure
        } catch let error as UsageError {
            throw error
        } catch {
            printError("imglab resize: \(error)"); return .failure
        }
        return output.write(image, command: name)
    }

    static func parseSize(_ text: String) throws(UsageError) -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { throw UsageError("--size needs WxH with positive integers, not '\(text)'") }
        return (parts[0], parts[1])
    }

    static func double(_ args: Arguments, _ name: String, default fallback: Double, min: Double) throws(UsageError) -> Double {
        guard let text = args.value(name) else { return fallback }
        guard let v = Double(text), v.isFinite, v >= min else { throw UsageError("\(name) must be a number ≥ \(min), not '\(text)'") }
        return v
    }

    static func mode(_ args: Arguments) throws(UsageError) -> ContentMode {
        let anchor: Anchor
        switch args.value("--anchor") ?? "center" {
        case "center", "centre": anchor = .center
        case "top": anchor = .top
        case "bottom": anchor = .bottom
        case "left": anchor = .left
        case "right": anchor = .right
        case let other: throw UsageError("unknown --anchor '\(other)'")
        }
        switch args.value("--mode") ?? "scaleToFill" {
        case "scaleToFill", "stretch", "scale-to-fill": return .scaleToFill
        case "aspectFit", "fit", "aspect-fit": return .aspectFit
        case "aspectFill", "fill", "aspect-fill": return .aspectFill(anchor: anchor)
        case "aspectFillWithoutCrop", "fill-no-crop": return .aspectFillWithoutCrop
        case let other: throw UsageError("unknown --mode '\(other)': use scaleToFill, aspectFit, aspectFill or aspectFillWithoutCrop")
        }
    }

    static func resizeOptions(_ args: Arguments) throws(UsageError) -> ResizeOptions {
        var options = ResizeOptions()
        if let q = args.value("--quality") {
            guard let quality = InterpolationQuality(rawValue: q) else { throw UsageError("unknown --quality '\(q)': use none, low, medium or high") }
            options.kernel = quality.kernel
        }
        if let k = args.value("--kernel") {
            guard let kernel = Kernel.named(k) else { throw UsageError("unknown --kernel '\(k)': use \(Kernel.presets.map(\.name).joined(separator: ", "))") }
            options.kernel = kernel
        }
        if args.flag("--srgb") { options.lightSpace = .sRGB }
        options.onlyShrink = args.flag("--only-shrink")
        return options
    }
}

/// `imglab thumbnail IN --max-pixel-size N -o OUT`: the ImageIO thumbnail contract.
enum ThumbnailCommand: Command {
    static let name = "thumbnail"
    static let summary = "ImageIO-style thumbnail: upright, longest side ≤ N, never enlarged, shrink-on-load"
    static let help = """
    USAGE: imglab thumbnail IN --max-pixel-size N -o OUT [--quality Q] [--srgb]

    Makes an upright thumbnail whose longer side is at most N pixels, never enlarging (the
    kCGImageSourceThumbnailMaxPixelSize contract with the transform applied). JPEGs are decoded
    at 1/2, 1/4 or 1/8 scale in the DCT domain when that still leaves N pixels, so a large photo
    is never decoded in full.

    OPTIONS:
      --max-pixel-size N     longest side of the result, in pixels (required)
      --quality Q            none, low, medium, high (default high)
      --kernel K             an explicit kernel
      --srgb                 average gamma-encoded values instead of linear light
    \(ImageOutput.helpText)

    EXAMPLE:
      imglab thumbnail IMG_0001.jpg --max-pixel-size 640 -o thumb.jpg
    """

    static func run(_ argv: [String]) throws(UsageError) -> ExitStatus {
        let args = try Arguments(argv, valued: ImageOutput.valuedOptions.union(["--max-pixel-size", "--quality", "--kernel"]), flags: ["--srgb", "--linear"])
        if args.flag("--help") { print(help); return .ok }
        guard args.positionals.count == 1, let input = args.positionals.first else { throw UsageError("give exactly one input file") }
        guard args.value("--max-pixel-size") != nil else { throw UsageError("--max-pixel-size N is required") }
        let size = try args.int("--max-pixel-size", default: 0, in: 1...1_000_000)
        let output = try ImageOutput(args)
        var options = try ResizeCommand.resizeOptions(args)
        options.straightAlpha = !output.container.storesPremultipliedAlpha
        do {
            let thumb = try MaxPixelSizeThumbnail.thumbnail(atPath: input, maxPixelSize: size, options: options)
            return output.write(thumb, command: name)
        } catch {
            printError("imglab thumbnail: \(input): \(error)")
            return .failure
        }
    }
}
