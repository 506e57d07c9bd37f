import ImageCorpus
import ImageCore

/// What a (case, operation) pair is, in the terms the mutants' `triggers` need: the source's
/// pixel format as the manifest records it, whether its pixels are translucent, which kind of
/// operation it is. Everything is read from the manifest entry, never from the files.
extension LabPair {
    /// The source's pixel format rebuilt from the manifest (palettes carry no entries: the
    /// manifest does not record them), or `nil` when a name is unknown.
    public var sourceFormat: PixelFormat? {
        let r = record.pixelFormat
        let model: ColorModel
        switch r.colorModel {
        case ColorModel.rgb.quartzName: model = .rgb
        case ColorModel.gray.quartzName: model = .gray
        case ColorModel.none.quartzName: model = .none
        case ColorModel.cmyk(inverted: false).quartzName: model = .cmyk(inverted: r.cmykInverted ?? false)
        case ColorModel.indexed(Palette([])).quartzName: model = .indexed(Palette([]))
        default: return nil
        }
        guard let alpha = AlphaInfo.allCases.first(where: { $0.quartzName == r.alphaInfo }),
              let order = ByteOrder.allCases.first(where: { $0.quartzName == r.byteOrder }) else { return nil }
        return PixelFormat(colorModel: model, bitsPerComponent: r.bitsPerComponent, alphaInfo: alpha, byteOrder: order, isFloat: r.floatComponents)
    }

    /// What the source states its colours by when not sRGB (an ICC profile, PNG gAMA or cICP:
    /// the manifest's words), or `nil`.
    public var sourceColours: String? { record.colours }

    /// Whether the source is indexed colour.
    public var sourceIsIndexed: Bool { record.pixelFormat.colorModel == ColorModel.indexed(Palette([])).quartzName }

    /// Whether the source stores pixels that are neither opaque nor fully transparent, or
    /// transparent ones: the scene has alpha and the encoding keeps it (RGBA, gray + alpha,
    /// palettes with transparency, GIF's transparent index).
    public var sourceHasTransparency: Bool {
        (Scene(rawValue: record.scene)?.hasAlpha ?? false) && ["none", "gray", "binaryAlpha"].contains(record.reduction)
    }

    /// Whether the source's scene has colour (not a gray scene and not a gray encoding), so
    /// that a channel permutation changes it.
    public var sourceHasColour: Bool {
        !["checkerAndGray", "zonePlate"].contains(record.scene) && record.pixelFormat.colorModel != ColorModel.gray.quartzName
    }

    /// The operation's name (``OperationRecord/kind``): `orient`, `resize`, `crop`, `squareThumbnail`, …
    public var operationKind: String { entry.operation.kind }

    /// Whether the operation resamples (resize, squareThumbnail, maxPixelSize); orient, crop,
    /// borders and rounded corners copy pixels.
    public var resamples: Bool { ["resize", "squareThumbnail", "maxPixelSize"].contains(operationKind) }

    /// Whether the output has more pixels than the displayed source.
    public var enlarges: Bool { entry.outputWidth * entry.outputHeight > record.displayWidth * record.displayHeight }

    /// Whether the output gains alpha the source may lack: a transparent border or rounded corners.
    public var addsAlpha: Bool { entry.operation.operation?.addsAlpha ?? false }

    /// Whether the output has antialiased (translucent) rounded-corner edges.
    public var roundsCorners: Bool { (entry.operation.cornerRadius ?? 0) > 0 }
}
