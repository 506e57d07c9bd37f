/// Why a stage of the pair route could not judge a pair (a file that cannot be read, a resizer
/// that threw, an oracle that cannot be rendered, no gate family for the pair): the message of
/// the pair's `error` verdict.
struct PairStageError: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
