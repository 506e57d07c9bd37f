import ImageCore

/// A prediction of the actual image under one bug hypothesis, made by a caller that knows more
/// than the two images: the source and the operation that produced them. The lab
/// (`ImageLab.CounterfactualOracle`) re-computes the ideal result with the bug put into an
/// independent model of the operation (averaging in sRGB instead of linear light, point
/// sampling instead of area averaging, palette transparency removed from the source) and hands
/// the result to the diagnosis here.
///
/// The diagnosis scores it exactly like a catalogue candidate of ``Kind`` `exact`
/// (predicted = ``predicted``, explained fraction and confidence as in ``Diagnosis``), so it
/// competes with every image-only candidate under the same rules; it is tested only when its
/// size equals the actual image's. `imglab diff A B` has no source, so it passes none.
///
/// A prediction that is not the ideal image moved by the bug's effect carries its ``control``:
/// the same prediction without the bug (the model's or the reference resizer's correct
/// output). Whatever the control explains is the model's or the resizer's own difference from
/// the ideal, not evidence of the bug, so the counterfactual is *admitted* to the ranking only
/// when it separates from its control by the rule that separates a candidate from its rival:
/// `explained × separation(explained, control's explained) ≥ 0.5`. A control only ever removes
/// a counterfactual; it is never a candidate itself.
public struct Counterfactual: Sendable {
    /// Stable identifier, e.g. `counterfactual.srgb-averaging`.
    public var id: String
    /// The bug class named when it wins, e.g. `light-space`.
    public var bugClass: String
    /// What the hypothesis is, in words (the diagnosis's name and summary).
    public var name: String
    /// DESIGN.md / research anchor ids it reproduces.
    public var references: [String]
    /// The predicted actual image, compared by value like the two files (orientation applied).
    public var predicted: Image
    /// The same prediction without the bug, or `nil` when the prediction is the ideal image
    /// moved by the bug's effect (whose control, the ideal itself, explains nothing).
    public var control: Image?

    /// A counterfactual prediction; see the type's notes.
    public init(id: String, bugClass: String, name: String, references: [String] = [], predicted: Image, control: Image? = nil) {
        self.id = id
        self.bugClass = bugClass
        self.name = name
        self.references = references
        self.predicted = predicted
        self.control = control
    }

    /// The candidate that reads its prediction from ``predicted`` (read with `withAlpha` so its
    /// channels match the compared images'); it predicts only an image of its own size.
    func candidate(withAlpha: Bool) -> Candidate {
        Self.candidate(id: id, bugClass: bugClass, name: name, references: references, image: predicted, withAlpha: withAlpha)
    }

    /// The candidate that reads ``control`` (id `ID.control`), if there is one.
    func controlCandidate(withAlpha: Bool) -> Candidate? {
        control.map { Self.candidate(id: Self.controlID(of: id), bugClass: "", name: "control of \(id)", references: [], image: $0, withAlpha: withAlpha) }
    }

    /// The identifier of a counterfactual's control.
    static func controlID(of id: String) -> String { id + ".control" }

    private static func candidate(id: String, bugClass: String, name: String, references: [String], image: Image, withAlpha: Bool) -> Candidate {
        let view = ExpectedView(ValueImage(image, withAlpha: withAlpha))
        let (w, h) = (view.width, view.height)
        return Candidate(id: id, bugClass: bugClass, name: name, references: references, kind: .exact,
                         size: { ew, eh in ew == w && eh == h ? (ew, eh) : (-1, -1) }) { _, x, y in
            view.pixel(x, y)
        }
    }
}
