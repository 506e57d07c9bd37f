import ImageCore

extension Diagnosis {
    /// The diagnosis with an orientation finding stated against the source's EXIF tag, when the
    /// caller knows it (the lab): a candidate `orientation.N` says the actual image is the expected
    /// one transformed by N, and with the source stored under tag t that is "tag t ignored" when
    /// N undoes t (the stored pixels came back), "tag t applied twice" when N is t (both at once
    /// for the tags that are their own inverse: 2, 3, 4, 5, 7), and otherwise "tag t drawn as
    /// tag u" with u = N after t. Any other diagnosis is returned unchanged.
    public func stated(againstSourceTag tag: Orientation) -> Diagnosis {
        guard let id = candidate, id.hasPrefix("orientation."), let n = Int(id.dropFirst("orientation.".count)),
              let transform = Orientation(exifValue: n), let name else { return self }
        let phrase: String
        if tag == .up {
            phrase = "the source is upright (tag 1), yet the pixels are transformed by EXIF orientation \(n) (\(transform))"
        } else if transform == tag.inverse && tag == tag.inverse {
            // A flip or a half turn undone twice is the stored picture again: the two cannot be told apart.
            phrase = "EXIF orientation \(tag.exifValue) (\(tag)) ignored or applied twice (for this tag both give the stored pixels back)"
        } else if transform == tag.inverse {
            phrase = "EXIF orientation \(tag.exifValue) (\(tag)) ignored: the stored pixels came back unturned"
        } else if transform == tag {
            let total = tag.followed(by: tag)
            phrase = "EXIF orientation \(tag.exifValue) (\(tag)) applied twice: the stored pixels turned by \(total.exifValue) (\(total)) in all, one \(tag) turn past upright"
        } else {
            let drawn = tag.followed(by: transform)
            phrase = "EXIF orientation \(tag.exifValue) (\(tag)) drawn as orientation \(drawn.exifValue) (\(drawn))"
        }
        var stated = self
        stated.name = phrase
        stated.summary = summary.replacingOccurrences(of: name, with: phrase)
        return stated
    }

    /// Two files without a source: an orientation finding stated against the tag a file carries,
    /// the expected file's (the original whose tag was ignored or applied twice) or else the
    /// actual's (a tag kept on pixels already turned); unchanged when neither has one.
    public func statedAgainstTags(expected: Orientation, actual: Orientation) -> Diagnosis {
        guard let tag = [expected, actual].first(where: { $0 != .up }) else { return self }
        return stated(againstSourceTag: tag)
    }
}
