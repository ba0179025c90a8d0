package diff

import (
	"slices"

	"github.com/robotsmith/robotsmith/indexability"
)

// Summary is the counts of a comparison. A URL is in the index when Google's or Bing's crawler
// indexes it as itself (indexability.Record.Index): a URL leaves the index when one of them did and
// no longer does, whatever the reason (a noindex, robots.txt, a canonical link to another URL, a page
// become an error page). Its lists are bounded: a site whose every page has its own cause lists the
// first few and counts the rest.
type Summary struct {
	OldURLs int `json:"old_urls"`
	NewURLs int `json:"new_urls"`
	Changed int `json:"changed"` // URLs with a change, added and removed ones included
	Added   int `json:"added"`
	Removed int `json:"removed"`

	OldIndexed int `json:"old_indexed"` // URLs in the index, in OLD: the base of noindex:N%
	NewIndexed int `json:"new_indexed"`
	// Engines are the same counts for each search engine's index (googlebot, bingbot).
	Engines []Engine `json:"engines"`
	// LeaveIndex and EnterIndex count the URLs of both sides that leave or enter the index (a
	// removed URL is counted in Removed), LeaveBecause why they leave.
	LeaveIndex   int     `json:"leave_index"`
	EnterIndex   int     `json:"enter_index"`
	LeaveBecause Because `json:"leave_because"`
	// Causes are the sources of the new values that take URLs out of the index, the most URLs first;
	// OtherCauses counts the URLs of causes past the first maxCauses.
	Causes      []Cause `json:"causes"`
	OtherCauses int     `json:"other_causes"`
	// Home are the home pages (indexability.Record.IsHome) that leave the index or are removed.
	Home []Home `json:"home"`

	OldListed    int `json:"old_listed"` // URLs a sitemap lists, in OLD
	NewListed    int `json:"new_listed"`
	LeaveSitemap int `json:"leave_sitemap"` // URLs of both sides that leave the sitemaps
	EnterSitemap int `json:"enter_sitemap"`

	// RobotsTxt are the lines of robots.txt that newly keep a crawler or category from URLs, or
	// newly let it through, with how many URLs; OtherRobotsTxt counts the URLs past maxLines lines.
	RobotsTxt      []RobotsLine `json:"robots_txt"`
	OtherRobotsTxt int          `json:"other_robots_txt"`
	// RobotsBlocked counts the URLs that robots.txt newly keeps Googlebot or Bingbot from while
	// their directives let it index them (--fail-on robots).
	RobotsBlocked int `json:"robots_blocked"`

	// Aspects counts, for every aspect, the URLs with a change of it.
	Aspects map[Aspect]int `json:"aspects"`

	causes map[cause]int // the index of each cause in Causes
	lines  map[robotsKey]int
}

// Engine is how many URLs are in one search engine's index.
type Engine struct {
	Engine string `json:"engine"` // googlebot, bingbot
	Old    int    `json:"old"`
	New    int    `json:"new"`
}

// Because counts the URLs that leave the index by the reason NEW gives.
type Because struct {
	Noindex   int `json:"noindex"`
	RobotsTxt int `json:"robots_txt"`
	Canonical int `json:"canonical"`
	Class     int `json:"class"` // became an error page or a redirect stub
}

// Cause is one source that takes URLs out of the index, or for canonical links (each page's own
// line), one target they now name.
type Cause struct {
	Why string `json:"why"` // noindex, robots.txt, canonical, class
	// What is the canonical links' target ("/blog/ (noindex)") or the class ("error page"); "" for
	// the other reasons, which Source says.
	What   string              `json:"what"`
	Source indexability.Source `json:"source"` // for canonical links, the first's
	URLs   int                 `json:"urls"`
	First  string              `json:"first"` // the first URL it takes out
}

type cause struct{ why, what, text string }

// Home is a home page that leaves the index, and why.
type Home struct {
	URL    string              `json:"url"`
	Why    string              `json:"why"` // noindex, robots.txt, canonical, class, removed
	Source indexability.Source `json:"source"`
}

// RobotsLine is one line of robots.txt (or none: a line removed) that newly blocks a crawler or
// category from URLs, or newly lets it through.
type RobotsLine struct {
	Who    string              `json:"who"`    // googlebot, bingbot, training, ai-search, ai-input
	Blocks bool                `json:"blocks"` // newly blocks; false: newly lets through
	Source indexability.Source `json:"source"` // the line that now decides; empty when none does
	URLs   int                 `json:"urls"`
	First  string              `json:"first"`
}

type robotsKey struct {
	who    string
	blocks bool
	text   string
}

// The most causes, home pages and robots.txt lines a summary lists.
const (
	maxCauses = 20
	maxHomes  = 20
	maxLines  = 50
)

func newSummary() *Summary {
	s := &Summary{Aspects: map[Aspect]int{}, causes: map[cause]int{}, lines: map[robotsKey]int{},
		Causes: []Cause{}, Home: []Home{}, RobotsTxt: []RobotsLine{}}
	for _, e := range indexability.SearchEngines {
		s.Engines = append(s.Engines, Engine{Engine: e})
	}
	for _, a := range aspects {
		s.Aspects[a] = 0
	}
	return s
}

func (s *Summary) countOld(r *indexability.Record) {
	s.OldURLs++
	if r.Indexed() {
		s.OldIndexed++
	}
	for i, e := range indexability.SearchEngines {
		if r.Index(e) == indexability.InIndex {
			s.Engines[i].Old++
		}
	}
	if r.Listed() {
		s.OldListed++
	}
}

func (s *Summary) countNew(r *indexability.Record) {
	s.NewURLs++
	if r.Indexed() {
		s.NewIndexed++
	}
	for i, e := range indexability.SearchEngines {
		if r.Index(e) == indexability.InIndex {
			s.Engines[i].New++
		}
	}
	if r.Listed() {
		s.NewListed++
	}
}

// add counts a change.
func (s *Summary) add(c *Change) {
	s.Changed++
	var seen [len(aspects)]bool
	for _, it := range c.Items {
		i := slices.Index(aspects[:], it.Aspect)
		if !seen[i] {
			seen[i] = true
			s.Aspects[it.Aspect]++
		}
		if it.Aspect == Sitemap {
			if it.New == "listed" {
				s.EnterSitemap++
			} else {
				s.LeaveSitemap++
			}
		}
	}
	switch c.Items[0].Aspect {
	case Added:
		s.Added++
	case Removed:
		s.Removed++
	default:
		if len(c.Left) > 0 {
			s.LeaveIndex++
			s.because(c)
		}
		if len(c.Joined) > 0 && len(c.Left) == 0 {
			s.EnterIndex++
		}
	}
	if c.robotsBlocked {
		s.RobotsBlocked++
	}
	if c.Home && len(c.Left) > 0 && len(s.Home) < maxHomes {
		s.Home = append(s.Home, Home{URL: c.URL, Why: c.Why, Source: c.WhySource})
	}
}

// because counts why a URL leaves the index, and the source behind it.
func (s *Summary) because(c *Change) {
	switch indexability.Why(c.Why) {
	case indexability.OutNoindex:
		s.LeaveBecause.Noindex++
	case indexability.OutRobotsTxt:
		s.LeaveBecause.RobotsTxt++
	case indexability.OutCanonical:
		s.LeaveBecause.Canonical++
	case indexability.OutClass:
		s.LeaveBecause.Class++
	}
	k := cause{why: c.Why, what: c.whyWhat, text: c.WhySource.Text}
	if c.whyWhat != "" {
		k.text = "" // each page's own link: the target is the cause
	}
	if i, ok := s.causes[k]; ok {
		s.Causes[i].URLs++
		return
	}
	if len(s.Causes) == maxCauses {
		s.OtherCauses++
		return
	}
	s.causes[k] = len(s.Causes)
	s.Causes = append(s.Causes, Cause{Why: c.Why, What: c.whyWhat, Source: c.WhySource, URLs: 1, First: c.URL})
}

// robotsTxt counts a change of robots.txt's verdict for who, from was to is, at the URL url.
func (s *Summary) robotsTxt(who string, was, is indexability.Crawl, url string) {
	blocks := is.Blocked > was.Blocked
	k := robotsKey{who, blocks, is.Source.Text}
	if i, ok := s.lines[k]; ok {
		s.RobotsTxt[i].URLs++
		return
	}
	if len(s.RobotsTxt) == maxLines {
		s.OtherRobotsTxt++
		return
	}
	s.lines[k] = len(s.RobotsTxt)
	s.RobotsTxt = append(s.RobotsTxt, RobotsLine{Who: who, Blocks: blocks, Source: is.Source, URLs: 1, First: url})
}

// finish orders the lists: the causes and lines that reach the most URLs first, ties in the order
// met (URL order), so that the summary depends on the records alone.
func (s *Summary) finish() {
	slices.SortStableFunc(s.Causes, func(a, b Cause) int { return b.URLs - a.URLs })
	slices.SortStableFunc(s.RobotsTxt, func(a, b RobotsLine) int { return b.URLs - a.URLs })
	s.causes, s.lines = nil, nil
}
