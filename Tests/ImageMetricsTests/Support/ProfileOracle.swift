import ImageCorpus

/// An independent rendering in sRGB of colours stated by a matrix/TRC profile, from what the
/// profile was built from (Tests/Fixtures/icc/manifest.json: white and primaries as CIE xy, a
/// tone curve), by the textbook arithmetic of ``DisplaySpace`` (no Little CMS).
typealias ProfileOracle = DisplaySpace
