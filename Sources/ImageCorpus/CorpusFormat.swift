/// ImageCorpus: the corpus generator and the analytic oracle of imglab's format lab.
///
/// Key terms:
/// - **Scene**: a continuous function of canvas position (x, y), in pixels of the upright
///   image, giving straight RGBA in linear light (``Scene``).
/// - **Case**: one corpus file: a scene stored in one pixel format of one container, with an
///   orientation and, for animations, frames (``CorpusCase``).
/// - **Oracle**: the ideal output of an operation, rendered from the scene itself with exact
///   area coverage in linear light (``Oracle``), never from a resizer's output.
/// - **Profile**: which cases and operations are generated (``CorpusProfile``): `quick` is the
///   CI gate, `full` every combination.
///
/// Independence: this module does not depend on ImageResize (the package graph says so), so no
/// oracle can share resampling code with the resizer it judges. The one rule they share, the
/// output-size rounding, is ``OutputGeometry`` in ImageCore.
public enum CorpusFormat {
    /// The corpus format version written into `manifest.json`: 3, whose cases name their
    /// operations as ``LabOperation`` does and may record a `hiddenTwin`.
    public static let manifestVersion = 3
}
