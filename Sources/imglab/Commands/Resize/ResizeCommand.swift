import CommandLineOptions
import ImageResize

/// `imglab resize IN -o OUT`: every operation of the resizer from the command line.
enum ResizeCommand: Command {
    static let name = "resize"
    static let summary = "resize, crop, add a transparent border and rounded corners; output is upright"
    static let positionals = Positionals(synopsis: "IN", count: 1...1, problem: "give exactly one input file")

    static let options: [any OptionDeclaration] = [size, mode, anchor, onlyShrink, crop, fromRect, addAlpha, quality,
        kernel, srgb, linear, colour, border, cornerRadius, scale, WastefulResize.option] + ImageOutput.options

    static func rectangle(_ name: String, _ help: String) -> Option<Rect?> {
        .parsed(name, "X,Y,W,H", help) { text throws(UsageError) in
            let v = text.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double($0) }
            guard v.count == 4 else { throw UsageError("\(name) needs X,Y,W,H, four numbers, not '\(text)'") }
            let rect = Rect(x: v[0], y: v[1], width: v[2], height: v[3])
            if let problem = rect.problem { throw UsageError("\(name) \(text): \(problem)") }
            guard rect.width > 0, rect.height > 0 else { throw UsageError("\(name) \(text): W and H must be positive") }
            return rect
        }
    }

    /// Kernel, light space and only-shrink, as `resize` and `thumbnail` declare them.
    static func resizeOptions(_ args: Arguments) throws(UsageError) -> ResizeOptions {
        let named = try args.value(kernel), quality = try args.value(quality)
        var options = ResizeOptions(kernel: named ?? quality?.kernel ?? .lanczos3,
            lightSpace: try args.value(srgb) ? .sRGB : .linear, onlyShrink: try args.value(onlyShrink))
        options.colour = try args.value(colour)
        return options
    }

    static func run(_ args: Arguments) throws(UsageError) -> ExitStatus {
        let output = try ImageOutput.parse(args, inputs: args.positionals)
        let box = try args.value(size), mode = try args.value(Self.mode)(try args.value(anchor))
        var request = FileResizeRequest(input: args.positionals[0], output: output.path, container: output.container,
            encoding: output.encoding, scale: try args.value(scale), crop: try args.value(crop),
            border: try args.value(border), cornerRadius: try args.value(cornerRadius),
            addsAlpha: try args.value(addAlpha), options: try resizeOptions(args), limits: output.limits)
        if let rect = try args.value(fromRect) {
            guard let box else { throw UsageError("--from-rect needs --size WxH") }
            request.size = .rect(rect, width: box.width, height: box.height)
        } else if let box {
            request.size = .box(width: box.width, height: box.height, contentMode: mode)
        }
        if let problem = request.boxProblem { throw UsageError(problem) }
        return try WastefulResize.write(request, args, command: name)
    }
}
