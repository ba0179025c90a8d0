package diff

import (
	"fmt"
	"strings"

	"github.com/robotsmith/robotsmith/indexability"
	"github.com/robotsmith/robotsmith/internal/excerpt"
)

// openDetails is how many changed URLs the Markdown report shows open; past it, the table is
// collapsed under a <details> whose summary counts them.
const openDetails = 10

// maxItems is how many changes of one URL a row of the Markdown report lists.
const maxItems = 20

func markdownHead(rep *Report) string {
	s := rep.Summary
	var b strings.Builder
	b.WriteString("### robotsmith diff\n\n")
	for _, f := range rep.Failures {
		fmt.Fprintf(&b, ":x: **Fails on %s**: %s.\n\n", code(f.Rule), md(f.Reason))
	}
	if s.Changed == 0 {
		fmt.Fprintf(&b, "No change: %s, each told the same as before.\n", plural(s.NewURLs, "URL"))
		if len(rep.Failures) == 0 {
			fmt.Fprintf(&b, "\n:white_check_mark: Passes `--fail-on %s`.\n", rep.FailOn)
		}
		return b.String()
	}
	if len(rep.Failures) == 0 {
		fmt.Fprintf(&b, ":white_check_mark: Passes `--fail-on %s`.\n\n", rep.FailOn)
	}
	if h := headline(s); len(h) > 0 {
		for i := range h {
			h[i] = md(h[i])
		}
		h[0] = "**" + h[0] + "**"
		b.WriteString(strings.Join(h, ", ") + ".\n\n")
	}
	b.WriteString("| | before | after |\n|---|--:|--:|\n")
	fmt.Fprintf(&b, "| URLs | %d | %d |\n", s.OldURLs, s.NewURLs)
	if indexCounts(s) == fmt.Sprintf("%d -> %d", s.Engines[0].Old, s.Engines[0].New) {
		fmt.Fprintf(&b, "| in the index | %d | %d |\n", s.Engines[0].Old, s.Engines[0].New)
	} else {
		for _, e := range s.Engines {
			fmt.Fprintf(&b, "| in %s's index | %d | %d |\n", e.Engine, e.Old, e.New)
		}
	}
	fmt.Fprintf(&b, "| in a sitemap | %d | %d |\n", s.OldListed, s.NewListed)
	if len(s.Causes) > 0 {
		b.WriteString("\n| leave the index | URLs | first |\n|---|--:|---|\n")
		for _, c := range s.Causes {
			what := md(c.Why) + " " + code(shownSource(c.Source))
			if c.What != "" {
				what = md(c.Why) + " " + code(excerpt.Cut(c.What))
			}
			fmt.Fprintf(&b, "| %s | %d | %s |\n", what, c.URLs, code(c.First))
		}
		if s.OtherCauses > 0 {
			fmt.Fprintf(&b, "| other causes | %d | |\n", s.OtherCauses)
		}
	}
	var lines []string // those the headline leaves out: the AI categories', and what is let through
	for _, l := range s.RobotsTxt {
		if !l.Blocks || (l.Who != indexability.Googlebot && l.Who != indexability.Bingbot) {
			lines = append(lines, "- "+md(robotsPhrase(l))+"\n")
		}
	}
	if len(lines) > 0 {
		b.WriteString("\n" + strings.Join(lines, ""))
	}
	if o := others(s); o != "" {
		fmt.Fprintf(&b, "\nOther changes (URLs): %s.\n", md(o))
	}
	b.WriteString("\n")
	what := plural(s.Changed, "changed URL")
	if s.Changed > openDetails {
		fmt.Fprintf(&b, "<details><summary>%s</summary>\n\n", what)
	} else {
		fmt.Fprintf(&b, "<details open><summary>%s</summary>\n\n", what)
	}
	b.WriteString("| URL | change | source |\n|---|---|---|\n")
	return b.String()
}

// markdownRow is one changed URL as a row of the table: the URL and what happens to its place in
// the index; each change; each change's source.
func markdownRow(c *Change) string {
	url := code(c.URL)
	if c.Home {
		url += " (home page)"
	}
	if s := state(c); s != "" {
		url += "<br>" + md(s)
	}
	var what, from []string
	for i, it := range c.Items {
		if i == maxItems {
			what = append(what, md(fmt.Sprintf("… and %d more", len(c.Items)-i)))
			break
		}
		switch it.Aspect {
		case Added:
			what = append(what, "added: "+md(it.New))
		case Removed:
			what = append(what, "removed: "+md(it.Old))
		default:
			what = append(what, md(label(it))+": "+code(shown(it.Old))+" → "+code(shown(it.New)))
		}
		if it.Source.Text != "" {
			from = append(from, code(excerpt.Cut(it.Source.Text)))
		} else {
			from = append(from, "")
		}
	}
	return "| " + url + " | " + strings.Join(what, "<br>") + " | " + strings.Join(from, "<br>") + " |\n"
}

// code is s as a Markdown code span inside a table cell: a fence longer than any run of backticks
// in it, line breaks as spaces, and '|' escaped, which GitHub's tables read before the span (and
// show as '|').
func code(s string) string {
	if s == "" {
		return ""
	}
	s = strings.NewReplacer("\r", " ", "\n", " ", "|", `\|`).Replace(s)
	run, longest := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// md is plain text inside Markdown: the characters that would start markup or HTML escaped.
func md(s string) string {
	return mdEscaper.Replace(s)
}

var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "<", "&lt;", ">", "&gt;",
	"&", "&amp;", "|", `\|`, "#", `\#`, "~", `\~`, "\r", " ", "\n", " ",
)
