import Foundation

extension FileInfo {
    /// The human-readable block `imglab info` prints for the file: container, stored and
    /// displayed size, orientation and where it was found, the pixel format in Quartz terms,
    /// the colour model, ICC, how the colours are stated, gamma, animation, the bitmap-context verdict, and the warnings
    /// about broken metadata that was dropped.
    public var text: String {
        var lines = [path]
        func add(_ key: String, _ value: String) {
            lines.append("  " + key.padding(toLength: 15, withPad: " ", startingAt: 0) + value)
        }
        let props = properties.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        add("container", container.uppercased() + (props.isEmpty ? "" : " (" + props.joined(separator: ", ") + ")"))
        let stored = "\(width)×\(height)"
        add("size", displayWidth == width && displayHeight == height ? stored : "\(stored) stored, \(displayWidth)×\(displayHeight) displayed")
        add("orientation", "\(orientation) (\(orientationName))" + (orientationSource.map { " from \($0)" } ?? ", none declared"))
        add("pixel format", format.summary + (storedBitDepth.map { $0 != bitsPerComponent ? "; file declares \($0)-bit" : "" } ?? ""))
        add("", "\(format.bitsPerComponent) bits/component, \(format.bitsPerPixel) bits/pixel, \(format.components) component\(format.components == 1 ? "" : "s"), \(format.alphaInfo), \(format.byteOrder)\(format.floatComponents ? ", kCGBitmapFloatComponents" : "")")
        var model = format.colorModel
        if let n = format.paletteEntries {
            model += ", \(n) palette entries, \(format.transparentPaletteEntries ?? 0) transparent"
        }
        add("colour model", model)
        if let icc {
            add("ICC", "\(icc.size) bytes" + (icc.description.map { ", \"\($0)\"" } ?? "")
                + (icc.colorSpace.map { " (\($0.trimmingCharacters(in: .whitespaces))\(icc.version.map { ", v\($0)" } ?? ""))" } ?? ""))
            if !icc.colourFacts.isEmpty { add("", icc.colourFacts) }
            if let problem = icc.problem { add("", "unusable: \(problem)") }
        } else {
            add("ICC", "none")
        }
        add("colours", colours)
        if let embeddedThumbnail { add("thumbnail", embeddedThumbnail.words) }
        if let gamma { add("gamma", String(format: "%.5f", gamma)) }
        if let sRGBIntent { add("sRGB", "rendering intent \(sRGBIntent)") }
        if frames > 1 {
            let shown = (delays ?? []).prefix(6).map { String(format: "%.3g s", $0) }.joined(separator: ", ")
            let loops = loopCount.map { $0 == 0 ? "loops forever" : "plays \($0)×" } ?? ""
            add("animation", "\(frames) frames; delays \(shown)\((delays?.count ?? 0) > 6 ? ", …" : ""); \(loops)")
        }
        let c = bitmapContext
        add("bitmap context", "iOS \(c.iOS ? "yes" : "no"), macOS \(c.macOS ? "yes" : "no")" + (c.reason.map { ": \($0)" } ?? ""))
        if !c.iOS { add("", "draw into on iOS: \(c.drawIntoOnIOS.summary)") }
        if !c.macOS { add("", "draw into on macOS: \(c.drawIntoOnMacOS.summary)") }
        for (i, warning) in warnings.enumerated() { add(i == 0 ? "warnings" : "", warning) }
        if let decodeError { add("decode error", decodeError) }
        return lines.joined(separator: "\n")
    }

    /// Several files as one pretty, key-sorted JSON array (`imglab info --json`); `nil` when a
    /// value cannot be encoded (a non-finite number).
    public static func json(_ infos: [FileInfo]) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(infos)).map { String(decoding: $0, as: UTF8.self) }
    }
}
