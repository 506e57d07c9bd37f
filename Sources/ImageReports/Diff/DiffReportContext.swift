import ImageMetrics

extension DiffReport {
    /// What a caller embedding the page in a larger report adds around the comparison (the lab
    /// report's pair pages: navigation, the pair's verdict, the source and golden images, the
    /// source's metadata). Every string is escaped when rendered; nothing here is HTML.
    public struct Context: Sendable {
        /// A link in the page's navigation bar. `rel` `prev` / `next` links are followed by the
        /// keys `p` / `n`, `up` by `u`.
        public struct Link: Sendable {
            public var label: String
            /// A relative URL (escaped as an attribute value).
            public var href: String
            /// `prev`, `next`, `up` or `nil`.
            public var rel: String?
            public init(label: String, href: String, rel: String? = nil) { self.label = label; self.href = href; self.rel = rel }
        }

        /// One image of the strip shown before the viewer.
        public struct Figure: Sendable {
            /// e.g. `source`, `oracle`, `golden 0123…`, `output`.
            public var label: String
            public var image: EmbeddedImage
            /// Displayed size in pixels (the figure is shown at an integer zoom with pixelated rendering).
            public var width: Int, height: Int
            /// One line under the image.
            public var caption: String
            public init(label: String, image: EmbeddedImage, width: Int, height: Int, caption: String = "") {
                self.label = label; self.image = image; self.width = width; self.height = height; self.caption = caption
            }
        }

        /// Page heading and title (default `imglab diff`).
        public var title: String
        /// The verdict line, replacing the gate's (text, and whether it is good).
        public var verdict: String?
        public var verdictOK: Bool
        /// Navigation links, shown under the heading.
        public var links: [Link]
        /// Facts shown as a table at the top: (field, value).
        public var facts: [(String, String)]
        /// The image strip shown before the viewer.
        public var figures: [Figure]
        /// The source the expected and actual images were made from: its metadata becomes the
        /// first column of the metadata table (pixel format in Quartz terms, orientation, ICC, frames).
        public var source: ImageSummary?

        public init(title: String = "imglab diff", verdict: String? = nil, verdictOK: Bool = true, links: [Link] = [],
                    facts: [(String, String)] = [], figures: [Figure] = [], source: ImageSummary? = nil) {
            self.title = title
            self.verdict = verdict
            self.verdictOK = verdictOK
            self.links = links
            self.facts = facts
            self.figures = figures
            self.source = source
        }
    }
}
