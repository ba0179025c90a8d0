package aipref

import (
	"strings"

	"github.com/robotsmith/robotsmith/crawlers"
)

// The law the reservation statement names. Article 4 of the Directive is the
// exception for text and data mining open to anyone (Article 3's, for
// research organisations and cultural heritage institutions, cannot be
// reserved); its paragraph 3 makes that exception apply only where the use
// has not been expressly reserved by the rightholders "in an appropriate
// manner, such as machine-readable means in the case of content made
// publicly available online".
// The Directive's full title: Directive (EU) 2019/790 of the European
// Parliament and of the Council of 17 April 2019 on copyright and related
// rights in the Digital Single Market.
const (
	Directive        = "Directive (EU) 2019/790"
	DirectiveArticle = "Article 4(3)"
)

// ReservationWidth is the longest line Reservation returns, so that with
// "# " before it a line of robots.txt stays within 100 characters.
const ReservationWidth = 96

// reserved lists the AI uses the policy says no to, in the order train,
// search, input.
func (p Policy) reserved() []crawlers.Purpose {
	var out []crawlers.Purpose
	for _, use := range []crawlers.Purpose{crawlers.Training, crawlers.AISearch, crawlers.AIInput} {
		if p.Pref(use) == No {
			out = append(out, use)
		}
	}
	return out
}

// uses are the words the statement gives each use: what the policy's keys
// mean, as the signals that carry them define them (Content-Signal's
// search and aipref's search are any search application that links to the
// content, not AI search alone).
var uses = map[crawlers.Purpose]string{
	crawlers.Training: "training AI models",
	crawlers.AISearch: "building search indexes and search results that link to it",
	crawlers.AIInput:  "use as input to AI answers (grounding, retrieval-augmented generation)",
}

// Reservation is the reservation of rights that `ai.reserve` writes above
// the preferences in robots.txt, as comment text: lines of at most
// ReservationWidth characters, without the "# " robots.txt puts before
// each. It is robotsmith's own wording. It names exactly the uses the policy
// says no to, and the signals that the placement writes, and nothing
// else: no use the policy says yes to or leaves unset is mentioned, so that
// the statement never reserves more, or grants more, than the preferences
// do. Nil when Reserve is not set or the policy says no to no use.
//
// With train: no and input: no, placement both:
//
//	Reservation of rights: the use of this site's content for text and data mining is expressly
//	reserved under Article 4(3) of Directive (EU) 2019/790 (on copyright and related rights in the
//	Digital Single Market) for: training AI models; use as input to AI answers (grounding,
//	retrieval-augmented generation). Machine-readable preferences: the Content-Signal and
//	Content-Usage lines below and the Content-Usage HTTP header.
func (p Policy) Reservation() []string {
	if !p.Reserve {
		return nil
	}
	rs := p.reserved()
	if len(rs) == 0 {
		return nil
	}
	words := make([]string, len(rs))
	for i, r := range rs {
		words[i] = uses[r]
	}
	text := "Reservation of rights: the use of this site's content for text and data mining is expressly reserved under " +
		DirectiveArticle + " of " + Directive + " (on copyright and related rights in the Digital Single Market) for: " +
		strings.Join(words, "; ") + "."
	var signals []string
	if p.InRobotsTxt() {
		if p.ContentUsage() != "" {
			signals = append(signals, "the Content-Signal and Content-Usage lines below")
		} else {
			signals = append(signals, "the Content-Signal line below")
		}
	}
	if p.InHeaders() {
		signals = append(signals, "the Content-Usage HTTP header")
	}
	if len(signals) > 0 {
		text += " Machine-readable preferences: " + strings.Join(signals, " and ") + "."
	}
	return wrap(text, ReservationWidth)
}

// wrap breaks text into lines of at most width bytes at spaces (a word
// longer than width gets a line of its own).
func wrap(text string, width int) []string {
	var lines []string
	var cur strings.Builder
	for _, w := range strings.Fields(text) {
		if cur.Len() > 0 && cur.Len()+1+len(w) > width {
			lines = append(lines, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteByte(' ')
		}
		cur.WriteString(w)
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}
