import ImageCorpus
import ImageCore

extension Mutant {
    /// D12: the bitmap context created with the source's own bitmap info and bits per
    /// component (the CoreGraphics scaler sample), so every source format Quartz does not
    /// accept as a context format fails with Quartz's error, on iOS's table.
    static let contextFromSource = Mutant(
        id: "context-from-source", topic: "bitmap-context",
        title: "bitmap context built from the source's bitmap info (fails on formats Quartz rejects)",
        history: "The CoreGraphics scaler sample and the first UIImage+Resize versions call CGBitmapContextCreate with CGImageGetBitsPerComponent, CGImageGetBytesPerRow and CGImageGetBitmapInfo of the source (D12). That works for the 32-bit premultiplied images a camera gives and fails with \"CGBitmapContextCreate: unsupported parameter combination\" for 24-bit RGB (D1), straight alpha (D2), indexed colour (D3) and 16 bits per component (D4) — the format bugs of B1 (flutter_native_image#59, Nuke#35, SDWebImage#371). The mutant throws ResizerError.failed with Quartz's text for exactly the formats BitmapContextSupport rejects on iOS, and resizes correctly otherwise.",
        references: ["D1", "D2", "D3", "D4", "D12", "B1"], bugClass: "bitmap-context",
        triggers: { pair in pair.sourceFormat.map { !BitmapContextSupport.verdict(for: $0).iOS } ?? false },
        make: { base in
            MutantResizer(name: "context-from-source(\(base.name))", base: base) { base, operation, source throws(ResizerError) in
                if let error = BitmapContextFailure.error(for: source.format) { throw error }
                return try base.apply(operation, to: source)
            }
        })
}

/// The error ``Mutant/contextFromSource`` throws, and how the selftest recognises it.
public enum BitmapContextFailure {
    /// The text every such error starts with: Quartz's function name, as its console message has it.
    public static let quartzText = "CGBitmapContextCreate: "

    /// The error for a context created with `format`'s own parameters on iOS, or `nil` when
    /// Quartz accepts the format.
    public static func error(for format: PixelFormat) -> ResizerError? {
        let verdict = BitmapContextSupport.verdict(for: format)
        guard !verdict.iOS else { return nil }
        return .failed(quartzText + (verdict.reason ?? "unsupported parameter combination"))
    }

    /// Whether a pair's error message carries Quartz's context-creation text (the selftest
    /// files such errors under the class `bitmap-context`).
    public static func isQuartzContextError(_ message: String) -> Bool {
        message.contains(quartzText)
    }
}
