package seek

// Stopwords are dropped on both sides (documents and queries) before
// stemming: English function words, and the keywords and boilerplate of
// the languages ingest reads, which occur in nearly every function body
// and would otherwise make every node a weak match for every query.
var stopwords = setOf(
	// English
	"a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any",
	"are", "as", "at", "be", "because", "been", "before", "being", "below", "between", "both",
	"but", "by", "can", "could", "did", "do", "does", "doing", "down", "during", "each", "either",
	"else", "etc", "ever", "every", "few", "for", "from", "further", "had", "has", "have", "having",
	"he", "her", "here", "hers", "him", "his", "how", "however", "i", "ie", "eg", "if", "in", "into",
	"is", "it", "its", "itself", "just", "let", "like", "may", "me", "might", "more", "most",
	"much", "must", "my", "no", "nor", "not", "now", "of", "off", "often", "on", "once", "one",
	"only", "or", "other", "our", "ours", "out", "over", "own", "per", "same", "shall", "she",
	"should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "then",
	"there", "these", "they", "this", "those", "through", "thus", "to", "too", "under", "until",
	"up", "upon", "us", "very", "via", "was", "we", "were", "what", "when", "whenever", "where",
	"whether", "which", "while", "who", "whom", "whose", "why", "will", "with", "within",
	"without", "would", "yet", "you", "your", "yours", "don", "doesn", "isn", "won", "wasn",
	"aren", "didn", "cannot", "ll", "ve", "re",
	// code noise: keywords and ubiquitous boilerplate. Words that are also
	// domain words ("type", "import", "select", "async", "interface",
	// "string") stay: IDF lowers them where they are everywhere.
	"func", "def", "fn", "return", "returns", "var", "const", "val", "void", "self", "this",
	"nil", "null", "none", "true", "false", "elif", "elsif", "endif", "pass", "lambda", "yield",
	"public", "private", "protected", "static", "final", "int", "uint", "int8", "int16",
	"int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "bool",
	"boolean", "str", "char", "usize", "isize", "u8", "u16", "u32", "u64", "i8", "i16", "i32",
	"i64", "f32", "f64", "impl", "pub", "mut", "len", "cap", "for", "while", "break",
	"continue", "case", "goto", "try", "catch", "except", "finally", "raise", "throw",
	"throws", "extends", "implements", "instanceof", "typeof", "undefined", "function",
	"typedef", "using", "include", "require", "exports", "todo", "fixme", "xxx", "www", "com",
	"org", "ok", "err", "args", "kwargs", "argv", "tmp", "ctx",
)

// queryNoise are words of bug reports and commit messages that say "this is
// a problem" rather than where the problem is. They are dropped from
// queries only: a function may well be named handleIssue.
var queryNoise = setOf(
	"bug", "bugs", "fail", "fails", "failed", "failing", "fix", "fixes", "fixed", "fixing", "issue", "issues", "problem", "problems",
	"please", "thanks", "thank", "hi", "hello", "expected", "actual", "actually", "behavior",
	"behaviour", "reproduce", "reproduction", "repro", "steps", "step", "happens", "happen",
	"happened", "seems", "seem", "think", "instead", "wrong", "incorrect", "incorrectly", "broken",
	"properly", "correctly", "correct", "should", "would", "something", "anything", "nothing",
	"still", "really", "maybe", "code", "find", "show", "want", "need", "needs", "get", "gets",
	"got", "use", "used", "using", "work", "works", "working", "see", "try", "tried",
	"traceback", "recent", "goroutine", "stacktrace", "able",
)

func setOf(words ...string) map[string]struct{} {
	m := make(map[string]struct{}, len(words))
	for _, w := range words {
		m[w] = struct{}{}
	}
	return m
}

// isStopword reports whether the lower-case part w is a stopword; the
// string conversion in a map index does not allocate.
func isStopword(w []byte) bool {
	_, ok := stopwords[string(w)]
	return ok
}
