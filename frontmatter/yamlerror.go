package frontmatter

import (
	"bytes"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// yamlFault reads a yaml.v3 error on block: the 1-based line of the block where the fault is, and
// what is wrong there, without yaml.v3's "yaml: line N: ".
//
// yaml.v3 names the line where the construct it was reading began, not the line where reading it
// failed: a key indented one space too few, forty lines into a list of rules, is reported at the
// list's first line. The line of the fault is the first line whose addition makes the block's
// beginning fail as the whole block fails (the same message, naming the same line): a beginning
// cut at the end of a line is YAML that reads to its end, or fails for that cut alone. The search
// halves the lines left each time, so a block that fails is read again a few dozen times at most.
func yamlFault(block []byte, err error) (int, string) {
	line, msg := yamlMessage(err)
	if line > 1 {
		ends := lineEnds(block)
		fails := func(k int) bool {
			var n yaml.Node
			err := yaml.Unmarshal(block[:ends[k-1]], &n)
			if err == nil {
				return false
			}
			l, m := yamlMessage(err)
			return l == line && m == msg
		}
		lo, hi := line, len(ends) // the fault is on a line in [lo, hi]; the whole block fails
		for lo < hi {
			if mid := (lo + hi) / 2; fails(mid) {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		line = lo
	}
	line = max(line, 1)
	if yamlTabProblem(msg) && bytes.ContainsRune(indentOf(block, line), '\t') {
		msg = "this line is indented with a tab; YAML indents with spaces only"
	}
	return line, msg
}

// yamlLine is the position yaml.v3 puts in its messages.
var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// yamlMessage splits a yaml.v3 error into the 1-based line it names (0 when it names none, as
// yaml.v3 does for a problem on the first line) and its message.
func yamlMessage(err error) (int, string) {
	msg := strings.TrimSpace(err.Error())
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0] // only from Node decoding, which does not happen here
	}
	m := yamlLine.FindStringSubmatch(msg)
	if m == nil {
		return 0, strings.TrimPrefix(msg, "yaml: ")
	}
	n, _ := strconv.Atoi(m[1])
	if !yamlScannerProblem(m[2]) {
		n++ // a parser error's line counts from 0
	}
	return n, m[2]
}

// lineEnds are the offsets after each line of b (after its newline, or len(b) for the last).
func lineEnds(b []byte) []int {
	ends := make([]int, 0, 1+bytes.Count(b, []byte{'\n'}))
	for off := 0; off < len(b); {
		off = lineEnd(b, off)
		ends = append(ends, off)
	}
	if len(ends) == 0 || b[len(b)-1] == '\n' {
		ends = append(ends, len(b)) // the empty line after the last newline
	}
	return ends
}

// indentOf is the blanks that start the 1-based line of b.
func indentOf(b []byte, line int) []byte {
	off := 0
	for i := 1; i < line && off < len(b); i++ {
		off = lineEnd(b, off)
	}
	end := off
	for end < len(b) && (b[end] == ' ' || b[end] == '\t') {
		end++
	}
	return b[off:end]
}

// yamlTabProblem reports a yaml.v3 message that a tab in a line's indentation gives.
func yamlTabProblem(msg string) bool {
	return strings.HasPrefix(msg, "found character that cannot start any token") ||
		strings.HasPrefix(msg, "found a tab character")
}
