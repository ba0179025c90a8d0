package rules

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

var parseCases = []struct {
	desc, source, in string
	want             []string
	warn, err        string
}{
	{"empty", "SPEC §4", "", nil, "", ""},
	{"list order kept", "ParseValue doc: tokens in the order written", "nofollow, noindex", []string{"nofollow", "noindex"}, "", ""},
	{"none expands", googleDoc, "NONE", []string{"noindex", "nofollow"}, "", ""},
	{"all is nothing", googleDoc, "all", nil, "", ""},
	{"asctime date", "RFC 9110 §5.6.7 obsolete asctime date", "unavailable_after: Fri Jun 25 15:00:00 2010", []string{"unavailable_after:2010-06-25T15:00:00Z"}, "", ""},
	{"RFC 850 four-digit year", rfc850, "unavailable_after: Friday, 25-Jun-2010 15:00:00 GMT", []string{"unavailable_after:2010-06-25T15:00:00Z"}, "", ""},
	{"ISO lower-case t and z", iso8601, "unavailable_after: 2027-01-31t10:00:00z", []string{"unavailable_after:2027-01-31T10:00:00Z"}, "", ""},
	{"ISO fraction truncated", iso8601, "unavailable_after: 2027-01-31T10:00:00.75Z", []string{"unavailable_after:2027-01-31T10:00:00Z"}, "", ""},
	{"ISO date with space and minutes", iso8601, "unavailable_after: 2027-01-31 10:00", []string{"unavailable_after:2027-01-31T10:00:00Z"}, "", ""},
	{"RFC 822 no seconds, CET", rfc822, "unavailable_after: 25 Jun 2010 15:00 CET", []string{"unavailable_after:2010-06-25T14:00:00Z"}, "", ""},
	{"date only RFC 822", rfc822, "unavailable_after: 25 Jun 2010", []string{"unavailable_after:2010-06-25T00:00:00Z"}, "", ""},
	{"offset with colon", iso8601, "unavailable_after: 25 Jun 2010 15:00:00 +05:30", []string{"unavailable_after:2010-06-25T09:30:00Z"}, "", ""},
	{"Go time String form", "frontmatter hands YAML dates over as time.Time.String()", "unavailable_after: 2027-01-31 10:00:00 +0100 CET", []string{"unavailable_after:2027-01-31T09:00:00Z"}, "", ""},
	{"Jekyll date with numeric zone", "generator-mapping.md Jekyll: a post dated 2018-02-25 13:02:08 +0530 (Jekyll's front matter date form)", "unavailable_after: 2018-02-25 13:02:08 +0530", []string{"unavailable_after:2018-02-25T07:32:08Z"}, "", ""},
	{"ISO date-time, space, zone with colon", iso8601 + " (as Hugo's date parser also reads it)", "unavailable_after: 2027-01-31 10:00:00 -07:00", []string{"unavailable_after:2027-01-31T17:00:00Z"}, "", ""},
	{"ISO date-time, space, minutes and zone", iso8601, "unavailable_after: 2027-01-31 10:00 +0100, noindex", []string{"unavailable_after:2027-01-31T09:00:00Z", "noindex"}, "", ""},
	{"Go time String form, numeric zone name", "time.Time.String() of a date with a fixed offset (TOML/YAML decoders): the zone name repeats the offset", "unavailable_after: 2027-01-31 10:00:00 +0530 +0530", []string{"unavailable_after:2027-01-31T04:30:00Z"}, "", ""},
	{"not a weekday: the comma splits", rfc1123 + "; SPEC §4 comma lists", "unavailable_after: Fry, 25 Jun 2010 15:00:00 GMT", nil, `unknown directive "25 jun 2010 15"`, `"Fry" is not a date`},
	{"bad month", rfc822, "unavailable_after: 25 Foo 2010", nil, "", "not a date"},
	{"bad ISO", iso8601, "unavailable_after: 2027-13-01", nil, "", "ISO 8601"},
	{"out of range", iso8601, "unavailable_after: 0000-01-01T00:00:00+01:00", nil, "", "out of range"},
	{"max-snippet too large", googleDoc, "max-snippet:99999999999", nil, "", "integer from -1"},
	{"all with value", googleDoc, "all:1", nil, "", "takes no value"},
	{"two errors joined", "STYLE 14: errors.Join for many problems", "max-snippet:x, max-video-preview:y, noindex", []string{"noindex"}, "", "max-video-preview"},
	{"underscore typo", "SPEC §4: a value within two edits of a known one is an error", "max_snippet", nil, "", `unknown directive "max_snippet" (did you mean "max-snippet"?)`},
	{"typo, one letter dropped", "SPEC §4 example noindx", "noindx", nil, "", `unknown directive "noindx" (did you mean "noindex"?)`},
	{"typo, one letter dropped from nofollow", "SPEC §4 example nofolow", "index, nofolow", []string{"index"}, "", `unknown directive "nofolow" (did you mean "nofollow"?)`},
	{"typo, hyphen", "SPEC §4 example no-index", "no-index", nil, "", `unknown directive "no-index" (did you mean "noindex"?)`},
	{"typo, upper case", "SPEC §4: values are case-insensitive, so is the typo check", "NOINDX", nil, "", `unknown directive "noindx" (did you mean "noindex"?)`},
	{"typo, two letters swapped (two edits)", "SPEC §4: within two edits", "noindxe", nil, "", `(did you mean "noindex"?)`},
	{"typo, two edits apart", "SPEC §4: within two edits", "nosnipet, noarchve", nil, "", `unknown directive "noarchve" (did you mean "noarchive"?)`},
	{"typo with an argument", "SPEC §4: within two edits", "max-snipet:50", nil, "", `unknown directive "max-snipet" (did you mean "max-snippet"?)`},
	{"typo, hyphen for underscore in unavailable_after", "SPEC §4: within two edits", "unavailable-after: 2027-01-31", nil, "", `(did you mean "unavailable_after"?)`},
	{"Cyrillic i lookalike", "SPEC §4 example noіndex (U+0456)", "noіndex", nil, "", `directive "noіndex" holds characters outside ASCII (did you mean "noindex"?)`},
	{"Greek omicron lookalike in nofollow", "SPEC §4: a value holding characters outside ASCII is an error", "nοfollow", nil, "", `(did you mean "nofollow"?)`},
	{"three edits away is merely unknown", "SPEC §4: other unknown values are warnings", "nopagereadaloud", nil, `unknown directive "nopagereadaloud"; dropped`, ""},
	{"noai is known", "SPEC §4: noai and noimageai are known values (advisory)", "noimageai, NOAI", []string{"noimageai", "noai"}, "", ""},
	{"obsolete noodp stays a warning", bingHelp + "; SPEC §4: obsolete values are warnings", "noodp", nil, `obsolete directive "noodp"`, ""},
	{"agent prefix is not a value", "SPEC §6: agent prefixes belong to headers, not meta values", "googlebot: noindex", nil, `unknown directive "googlebot"`, ""},
}

func TestParseValue(t *testing.T) {
	for _, tc := range parseCases {
		t.Run(tc.desc, func(t *testing.T) {
			if tc.source == "" {
				t.Fatal("case cites no source")
			}
			got, warns, err := ParseValue(tc.in)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseValue(%q) = %q, want %q", tc.in, got, tc.want)
			}
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("error: got %v, want it to contain %q", err, tc.err)
			case tc.err != "" && !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrMisspelt):
				t.Errorf("error %v wraps neither ErrMalformed nor ErrMisspelt", err)
			}
			if tc.warn == "" && len(warns) > 0 {
				t.Errorf("unexpected warnings %q", warns)
			}
			if tc.warn != "" && (len(warns) != 1 || !strings.Contains(warns[0], tc.warn)) {
				t.Errorf("warnings: got %q, want one containing %q", warns, tc.warn)
			}
		})
	}
}
