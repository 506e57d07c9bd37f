import ImageCore
import ImageCodecs

/// One corpus file: a scene stored by an encoding, with an orientation, a scale and the
/// operations whose oracles are generated for it.
public struct CorpusCase: Hashable, Sendable {
    /// The scene (for animations, the scene of frame 0).
    public var scene: Scene
    /// How it is stored.
    public var encoding: Encoding
    /// The upright (displayed) canvas size, pixels.
    public var width: Int, height: Int
    /// The orientation written into the file; the stored pixels are the upright image
    /// transformed by its inverse, so applying it gives the scene upright.
    public var orientation: Orientation
    /// Points-to-pixels scale the case declares (2 for an `@2x` asset; carried in the file
    /// name and the manifest, since no container here records it).
    public var scale: Int
    /// The operations to render oracles for.
    public var operations: [LabOperation]
    /// The colours under α = 0 (``HiddenColours``); ``hiddenTwin`` has the swapped ones.
    public var hiddenColours: HiddenColours

    /// A case; `hiddenColours` defaults to what the storage can keep
    /// (``defaultHiddenColours(scene:encoding:)``).
    public init(scene: Scene, encoding: Encoding, width: Int, height: Int, orientation: Orientation = .up,
                scale: Int = 1, operations: [LabOperation], hiddenColours: HiddenColours? = nil) {
        self.scene = scene
        self.encoding = encoding
        self.width = width
        self.height = height
        self.orientation = orientation
        self.scale = scale
        self.operations = operations
        self.hiddenColours = hiddenColours ?? Self.defaultHiddenColours(scene: scene, encoding: encoding)
    }

    /// The hidden colours a storage can keep: gray (white/black) for gray formats, with or
    /// without alpha (without it the scene's transparent parts become visible, in the gray that
    /// contrasts with the scene, so that even 1 bit keeps a stencil's shape); one colour
    /// (magenta) for GIF's single transparent index, for palettes without room for a second
    /// transparent entry, and for colour storage without alpha (where the scene's transparent
    /// parts become visible, as magenta); the magenta/green pair otherwise.
    public static func defaultHiddenColours(scene: Scene, encoding: Encoding) -> HiddenColours {
        switch encoding.reduction {
        case .opaque, .binaryAlpha: return .single
        case .gray, .grayOpaque: return .gray
        case .none:
            if let bits = encoding.paletteBits, scene.flatColorCount >= 1 << bits { return .single }
            return .pair
        }
    }

    /// Whether the file stores hidden colour where a decode delivers it: the storage keeps it
    /// (``Encoding/keepsHiddenColour``) and the case has transparent pixels (a scene with
    /// alpha, or an animation's transparent sprite holes).
    public var storesHiddenColour: Bool {
        encoding.keepsHiddenColour && (scene.hasAlpha || animation != nil)
    }

    /// The invisible-pixel invariance twin: the same case with the twin's hidden colours
    /// (magenta ↔ green, gray inverted), so the two files differ only under α = 0; `nil` when
    /// the file stores no hidden colour, or for a twin itself.
    public var hiddenTwin: CorpusCase? {
        guard storesHiddenColour, !hiddenColours.isTwin else { return nil }
        var twin = self
        twin.hiddenColours = hiddenColours.twin
        return twin
    }

    /// `png-rgba8-softAlpha-48x32-o6@2x`: encoding, scene, size, orientation when not 1, scale when not 1.
    public var id: String {
        var s = "\(encoding.id)-\(scene.rawValue)-\(width)x\(height)"
        if orientation != .up { s += "-o\(orientation.exifValue)" }
        if scale != 1 { s += "@\(scale)x" }
        return s
    }

    /// The file's path inside the corpus folder: `sources/ID.EXT`, or `sources/ID.twin.EXT`
    /// for a ``hiddenTwin``.
    public var sourcePath: String {
        "sources/\(id)\(hiddenColours.isTwin ? ".twin" : "").\(encoding.container.fileExtension)"
    }

    /// Number of frames (3 for animations).
    public var frameCount: Int { encoding.animationStyle == nil ? 1 : AnimationPlan.frameCount }

    /// The animation, for animated cases.
    public var animation: AnimationPlan? {
        encoding.animationStyle.map { AnimationPlan(scene: scene, style: $0, width: width, height: height, hidden: hiddenColours) }
    }

    /// The stored size (display size with width and height swapped for orientations 5–8).
    public var storedSize: (width: Int, height: Int) { orientation.inverse.displaySize(width: width, height: height) }

    /// The documents' failures the case exercises: its encoding's, D5 for a non-up orientation, D8 for scale 2.
    public var documents: [DocumentFailure] {
        var set = Set(encoding.documents)
        if orientation != .up { set.insert(.d5) }
        if scale != 1 { set.insert(.d8) }
        return set.sorted()
    }

    /// The bug classes the case exercises: its encoding's, B15/B17/B18 (and B16 when mirrored)
    /// for orientations, B24 for scale.
    public var bugClasses: [BugClass] {
        var set = Set(encoding.bugClasses)
        if orientation != .up {
            set.formUnion([.b15, .b17])
            if orientation.isMirrored { set.insert(.b16) }
            if encoding.container != .jpeg { set.insert(.b18) }
        }
        if scale != 1 { set.insert(.b24) }
        return set.sorted()
    }

    /// The scene the file holds, as the oracle sees it: the scene (or frame `k`'s composited
    /// canvas), reduced to what the pixel format can hold. Coordinates are canvas pixels.
    public func content(frame k: Int = 0) -> @Sendable (Double, Double) -> LinearRGBA {
        let reduction = encoding.reduction
        let w = Double(width), h = Double(height)
        if let plan = animation {
            return { x, y in reduction.apply(plan.canvas(k, x: x, y: y)) }
        }
        let scene = self.scene, hidden = hiddenColours
        return { x, y in reduction.apply(scene.color(x: x, y: y, width: w, height: h, hidden: hidden)) }
    }

    /// The colour stored under α = 0 at canvas pixel (x, y) of frame `k`'s stored pixels (for
    /// an APNG frame, in the frame's region), reduced like the content: the hidden colour of
    /// the spot at the pixel's centre.
    public func hiddenColour(frame k: Int = 0, pixelX x: Int, pixelY y: Int) -> LinearRGBA {
        let cx = Double(x) + 0.5, cy = Double(y) + 0.5
        let spot = animation.map { $0.hiddenSpot(k, x: cx, y: cy) }
            ?? scene.hiddenSpot(x: cx, y: cy, width: Double(width), height: Double(height))
        return encoding.reduction.apply(hiddenColours.colour(at: spot))
    }

    /// Identifies the content of frame `k` for sharing oracles between cases: scene (or
    /// animation), reduction and canvas size.
    public func contentKey(frame k: Int = 0) -> String {
        let base = animation.map { "anim-\($0.style.id)-\(scene.rawValue)" } ?? "\(scene.rawValue)-\(encoding.reduction.rawValue)"
        return "\(base)-\(width)x\(height)"
    }

    /// The oracle file of `operation` for frame `k`.
    public func oraclePath(_ operation: LabOperation, frame k: Int) -> String {
        "oracle/\(contentKey())/\(operation.id)\(frameCount > 1 ? "-f\(k)" : "").png"
    }
}
