/// ImageLab: the corpus generator and the analytic oracle of imglab's format lab.
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
/// Independence: only `OracleGeometry.swift` imports ImageResize, for ``OutputGeometry``'s
/// declared size rule; no resampling code is shared (the module builds with
/// `MemberImportVisibility`, so no other file can even see ImageResize).
public enum ImageLab {
    /// The corpus format version written into `manifest.json`.
    public static let manifestVersion = 1
}
