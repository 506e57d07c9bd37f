import ImageCore

/// One candidate explanation of a difference: a known bug, written as the transform it
/// applies to the *expected* image. The diagnosis applies every candidate to the expected
/// image and measures how much of the difference to the actual image it accounts for.
///
/// A candidate is data (an identifier, a bug class, words for the report, the DESIGN/anchor
/// ids it reproduces) plus a pure point function: the predicted straight RGBA of the actual
/// image at (x, y), read from the expected image — from the 3×3 ``Neighbourhood`` of (x, y)
/// alone (most candidates: a per-pixel transform, a shift, a 3×3 filter), or from anywhere in
/// it (orientations, scales, the lab's counterfactual images).
struct Candidate: Sendable {
    /// Where the prediction reads the expected image.
    enum Reading: Sendable {
        /// Only the 3×3 neighbourhood of the same pixel (the images have the same size). The
        /// diagnosis gathers the neighbourhoods of its samples once for every such candidate
        /// (``SampleNeighbourhoods``).
        case neighbourhood(@Sendable (Neighbourhood) -> SIMD4<Double>)
        /// Any pixel of the expected image, at actual-image pixel (x, y).
        case anywhere(@Sendable (ExpectedView, Int, Int) -> SIMD4<Double>)
    }

    /// How the prediction is used.
    enum Kind: Sendable {
        /// The transform is the whole bug: predicted = T(expected).
        case exact
        /// The transform gives the direction of an error whose size depends on unknown inputs
        /// (the light space or filter of a resize): predicted = E + λ·(T(E) − E), λ > 0 fitted.
        case fitted
    }

    /// Stable identifier, e.g. `channels.bgr`.
    let id: String
    /// The bug class reported as `diagnosis.class`, e.g. `channel-order`.
    let bugClass: String
    /// What happened, in words.
    let name: String
    /// Failure ids of DESIGN.md / research anchors this reproduces (D5, D6, …).
    let references: [String]
    let kind: Kind
    /// Whether the prediction is stored the way the actual file stores pixels: when the actual
    /// format has no alpha, the predicted alpha is dropped (the misread alpha byte is lost).
    /// Only byte-layout candidates do this; others must not get "alpha dropped" for free.
    let followsActualStorage: Bool
    /// Whether the prediction fits each pixel to the actual image along a line the images fix
    /// (``AlphaEdgeHalo``): it then yields to an exact candidate of its class that explains
    /// nearly as much (``Diagnoser``).
    let fitsEachPixel: Bool
    /// Whether the candidate can be told apart from "no change" for these images.
    let applies: @Sendable (DiagnosisContext) -> Bool
    /// The actual image's size this candidate predicts, from the expected size.
    let size: @Sendable (Int, Int) -> (width: Int, height: Int)
    /// How the predicted straight RGBA (0…1) at an actual-image pixel is read.
    let reading: Reading
    /// The parameters the candidate was fitted with or stands for (``Diagnosis/parameters``).
    var parameters: [String: Double] = [:]

    /// A candidate that reads the expected image anywhere (`predict(view, x, y)`).
    init(id: String, bugClass: String, name: String, references: [String] = [], kind: Kind = .exact,
         followsActualStorage: Bool = false, fitsEachPixel: Bool = false,
         applies: @escaping @Sendable (DiagnosisContext) -> Bool = { _ in true },
         size: @escaping @Sendable (Int, Int) -> (width: Int, height: Int) = { ($0, $1) },
         predict: @escaping @Sendable (ExpectedView, Int, Int) -> SIMD4<Double>) {
        self.init(id: id, bugClass: bugClass, name: name, references: references, kind: kind,
                  followsActualStorage: followsActualStorage, fitsEachPixel: fitsEachPixel, applies: applies, size: size,
                  reading: .anywhere(predict))
    }

    /// A candidate that reads only the 3×3 neighbourhood of the pixel it predicts (same size).
    init(id: String, bugClass: String, name: String, references: [String] = [], kind: Kind = .exact,
         followsActualStorage: Bool = false,
         applies: @escaping @Sendable (DiagnosisContext) -> Bool = { _ in true },
         local predict: @escaping @Sendable (Neighbourhood) -> SIMD4<Double>) {
        self.init(id: id, bugClass: bugClass, name: name, references: references, kind: kind,
                  followsActualStorage: followsActualStorage, fitsEachPixel: false, applies: applies, size: { ($0, $1) },
                  reading: .neighbourhood(predict))
    }

    private init(id: String, bugClass: String, name: String, references: [String], kind: Kind,
                 followsActualStorage: Bool, fitsEachPixel: Bool, applies: @escaping @Sendable (DiagnosisContext) -> Bool,
                 size: @escaping @Sendable (Int, Int) -> (width: Int, height: Int), reading: Reading) {
        self.id = id
        self.bugClass = bugClass
        self.name = name
        self.references = references
        self.kind = kind
        self.followsActualStorage = followsActualStorage
        self.fitsEachPixel = fitsEachPixel
        self.applies = applies
        self.size = size
        self.reading = reading
    }

    /// The candidate's predicted straight RGBA (0…1) at actual-image pixel (x, y), read directly
    /// from the expected image's view `e` (the diagnosis reads the same values from its gathered
    /// neighbourhoods).
    func predict(_ e: ExpectedView, _ x: Int, _ y: Int) -> SIMD4<Double> {
        switch reading {
        case .anywhere(let predict):
            return predict(e, x, y)
        case .neighbourhood(let predict):
            var window: [SIMD4<Double>] = []
            for dy in -1...1 {
                for dx in -1...1 { window.append(e.pixel(x + dx, y + dy)) }
            }
            return window.withUnsafeBufferPointer { predict(Neighbourhood(planes: $0, index: 0, stride: 1)) }
        }
    }
}

/// What the diagnosis knows about the two files besides their pixels, and about the source
/// they were made from when the caller knows it (the lab); `imglab diff` knows only the two files.
struct DiagnosisContext: Sendable {
    /// Whether each file's pixel format has an alpha channel (palette transparency counts).
    var expectedHasAlpha: Bool, actualHasAlpha: Bool
    /// Whether either file is indexed with a transparent palette entry (PNG tRNS, GIF).
    var indexedTransparency: Bool
    /// Bits per component of each source (32 for float components).
    var expectedBits: Int, actualBits: Int
    /// Whether any expected pixel is translucent or transparent.
    var expectedTranslucent: Bool
    /// The pixel formats of the two files, and of the source they were made from when the caller
    /// knows it (`nil` in `imglab diff`).
    var expectedFormat: PixelFormat, actualFormat: PixelFormat, source: PixelFormat?

    /// The context of `expected` and `actual`, made from a source of format `source` when known.
    init(expected: PixelFormat, actual: PixelFormat, source: PixelFormat?, expectedBits: Int, actualBits: Int,
         expectedTranslucent: Bool) {
        expectedHasAlpha = expected.hasAlpha
        actualHasAlpha = actual.hasAlpha
        indexedTransparency = expected.colorModel.paletteHasAlpha || actual.colorModel.paletteHasAlpha
        self.expectedBits = expectedBits
        self.actualBits = actualBits
        self.expectedTranslucent = expectedTranslucent
        expectedFormat = expected
        actualFormat = actual
        self.source = source
    }

    /// Whether CMYK inks can be involved. With the source known: the source or the actual file
    /// is CMYK (the expected side is the caller's rendering, not a step of the chain). Without
    /// it: the expected file is not grey, or the actual file is CMYK (a grey expected image
    /// carries no inks to invert).
    var cmyk: Bool {
        func isCMYK(_ f: PixelFormat) -> Bool { if case .cmyk = f.colorModel { return true } else { return false } }
        if let source { return isCMYK(source) || isCMYK(actualFormat) }
        return expectedFormat.colorModel != .gray || isCMYK(actualFormat)
    }

    /// Whether float components are involved: the source or the actual file has them (source
    /// known), either file has them (source unknown).
    var floatSamples: Bool {
        if let source { return source.isFloat || actualFormat.isFloat }
        return expectedFormat.isFloat || actualFormat.isFloat
    }

    /// Whether 16-bit integer samples can have been narrowed to the actual's 8: the source has
    /// them (source known), or always when the source is unknown (two 8-bit outputs of a 16-bit
    /// source show no trace of it); the actual file has 8-bit integer samples either way.
    var narrowedFromSixteen: Bool {
        guard actualFormat.bitsPerComponent == 8, !actualFormat.isFloat else { return false }
        return source.map { $0.bitsPerComponent == 16 } ?? true
    }
}
