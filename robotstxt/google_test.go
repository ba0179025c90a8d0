package robotstxt

import (
	"fmt"
	"strings"
	"testing"
)

// matchCase is one question to the matcher. The cases of googleCases come from Google's own test
// suite for its robots.txt parser (robots_test.cc in github.com/google/robotstxt, Apache 2.0);
// origin names the TEST there. Google's tests only check allowed or not; line, the line that
// decided (0 when no rule matched), is ours, worked out by hand from Google's matching_line().
type matchCase struct {
	origin  string
	robots  string
	agent   string
	url     string
	allowed bool
	line    int
}

// Robots.txt bodies used by several cases, named after the Google test they come from.
const (
	sysTest = "user-agent: FooBot\n" +
		"disallow: /\n"

	groupsTest = "allow: /foo/bar/\n" + // 1: before any group, obeyed by nobody
		"\n" +
		"user-agent: FooBot\n" + // 3
		"disallow: /\n" +
		"allow: /x/\n" + // 5
		"user-agent: BarBot\n" +
		"disallow: /\n" + // 7
		"allow: /y/\n" +
		"\n" +
		"\n" +
		"allow: /w/\n" + // 11
		"user-agent: BazBot\n" +
		"\n" +
		"user-agent: FooBot\n" + // 14: same group as BazBot, merged with line 3's
		"allow: /z/\n" +
		"disallow: /\n" // 16

	otherRules1 = "User-agent: BarBot\n" +
		"Sitemap: https://foo.bar/sitemap\n" +
		"User-agent: *\n" +
		"Disallow: /\n"
	otherRules2 = "User-agent: FooBot\n" +
		"Invalid-Unknown-Line: unknown\n" +
		"User-agent: *\n" +
		"Disallow: /\n"

	namesUpper = "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n"
	namesLower = "user-agent: FooBot\nallow: /x/\ndisallow: /\n"
	namesCamel = "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n"

	agentUpper = "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n"
	agentLower = "User-Agent: foo bar\nAllow: /x/\nDisallow: /\n"
	agentCamel = "User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n"

	upToSpace = "User-Agent: *\n" +
		"Disallow: /\n" +
		"User-Agent: Foo Bar\n" +
		"Allow: /x/\n" +
		"Disallow: /\n"

	globalGroup = "user-agent: *\n" +
		"allow: /\n" +
		"user-agent: FooBot\n" +
		"disallow: /\n"
	onlySpecific = "user-agent: FooBot\n" +
		"allow: /\n" +
		"user-agent: BarBot\n" +
		"disallow: /\n" +
		"user-agent: BazBot\n" +
		"disallow: /\n"

	indexHTML = "User-Agent: *\n" +
		"Allow: /allowed-slash/index.html\n" +
		"Disallow: /\n"

	docFish      = "user-agent: FooBot\ndisallow: /\nallow: /fish\n"
	docFishStar  = "user-agent: FooBot\ndisallow: /\nallow: /fish*\n"
	docFishSlash = "user-agent: FooBot\ndisallow: /\nallow: /fish/\n"
	docPHP       = "user-agent: FooBot\ndisallow: /\nallow: /*.php\n"
	docPHPEnd    = "user-agent: FooBot\ndisallow: /\nallow: /*.php$\n"
	docFishPHP   = "user-agent: FooBot\ndisallow: /\nallow: /fish*.php\n"
)

// Google cuts lines after 8*2083 bytes (GoogleOnly_LineTooLong builds its long lines the same way).
var (
	longDisallow = "/x/" + strings.Repeat("a", 2083*8-len("disallow: ")+1-len("/x/")-len("/x/"))
	longAllowA   = "/x/" + strings.Repeat("a", 2083*8-len("allow: ")+1-len("/x/")-len("/x/"))
	longAllowB   = "/x/" + strings.Repeat("b", 2083*8-len("allow: ")+1-len("/x/")-len("/x/"))
	tooLong1     = "user-agent: FooBot\n" + "disallow: " + longDisallow + "/qux\n"
	tooLong2     = "user-agent: FooBot\n" + "disallow: /\n" +
		"allow: " + longAllowA + "/qux\n" +
		"allow: " + longAllowB + "/qux\n"
)

var googleCases = []matchCase{
	{"GoogleOnly_SystemTest", "", "FooBot", "", true, 0},
	{"GoogleOnly_SystemTest", sysTest, "", "", true, 0},
	{"GoogleOnly_SystemTest", sysTest, "FooBot", "", false, 2}, // an empty URL is "/"
	{"GoogleOnly_SystemTest", "", "", "", true, 0},

	{"ID_LineSyntax_Line", "user-agent: FooBot\ndisallow: /\n", "FooBot", "http://foo.bar/x/y", false, 2},
	{"ID_LineSyntax_Line", "foo: FooBot\nbar: /\n", "FooBot", "http://foo.bar/x/y", true, 0},
	{"ID_LineSyntax_Line", "user-agent FooBot\ndisallow /\n", "FooBot", "http://foo.bar/x/y", false, 2},

	{"ID_LineSyntax_Groups", groupsTest, "FooBot", "http://foo.bar/x/b", true, 5},
	{"ID_LineSyntax_Groups", groupsTest, "FooBot", "http://foo.bar/z/d", true, 15},
	{"ID_LineSyntax_Groups", groupsTest, "FooBot", "http://foo.bar/y/c", false, 4},
	{"ID_LineSyntax_Groups", groupsTest, "BarBot", "http://foo.bar/y/c", true, 8},
	{"ID_LineSyntax_Groups", groupsTest, "BarBot", "http://foo.bar/w/a", true, 11},
	{"ID_LineSyntax_Groups", groupsTest, "BarBot", "http://foo.bar/z/d", false, 7},
	{"ID_LineSyntax_Groups", groupsTest, "BazBot", "http://foo.bar/z/d", true, 15},
	{"ID_LineSyntax_Groups", groupsTest, "FooBot", "http://foo.bar/foo/bar/", false, 4},
	{"ID_LineSyntax_Groups", groupsTest, "BarBot", "http://foo.bar/foo/bar/", false, 7},
	{"ID_LineSyntax_Groups", groupsTest, "BazBot", "http://foo.bar/foo/bar/", false, 16},

	{"ID_LineSyntax_Groups_OtherRules", otherRules1, "FooBot", "http://foo.bar/", false, 4},
	{"ID_LineSyntax_Groups_OtherRules", otherRules1, "BarBot", "http://foo.bar/", false, 4},
	{"ID_LineSyntax_Groups_OtherRules", otherRules2, "FooBot", "http://foo.bar/", false, 4},
	{"ID_LineSyntax_Groups_OtherRules", otherRules2, "BarBot", "http://foo.bar/", false, 4},

	{"ID_REPLineNamesCaseInsensitive", namesUpper, "FooBot", "http://foo.bar/x/y", true, 2},
	{"ID_REPLineNamesCaseInsensitive", namesLower, "FooBot", "http://foo.bar/x/y", true, 2},
	{"ID_REPLineNamesCaseInsensitive", namesCamel, "FooBot", "http://foo.bar/x/y", true, 2},
	{"ID_REPLineNamesCaseInsensitive", namesUpper, "FooBot", "http://foo.bar/a/b", false, 3},
	{"ID_REPLineNamesCaseInsensitive", namesLower, "FooBot", "http://foo.bar/a/b", false, 3},
	{"ID_REPLineNamesCaseInsensitive", namesCamel, "FooBot", "http://foo.bar/a/b", false, 3},

	{"ID_UserAgentValueCaseInsensitive", agentUpper, "Foo", "http://foo.bar/x/y", true, 2},
	{"ID_UserAgentValueCaseInsensitive", agentLower, "Foo", "http://foo.bar/x/y", true, 2},
	{"ID_UserAgentValueCaseInsensitive", agentCamel, "Foo", "http://foo.bar/x/y", true, 2},
	{"ID_UserAgentValueCaseInsensitive", agentUpper, "Foo", "http://foo.bar/a/b", false, 3},
	{"ID_UserAgentValueCaseInsensitive", agentLower, "Foo", "http://foo.bar/a/b", false, 3},
	{"ID_UserAgentValueCaseInsensitive", agentCamel, "Foo", "http://foo.bar/a/b", false, 3},
	{"ID_UserAgentValueCaseInsensitive", agentUpper, "foo", "http://foo.bar/x/y", true, 2},
	{"ID_UserAgentValueCaseInsensitive", agentLower, "foo", "http://foo.bar/x/y", true, 2},
	{"ID_UserAgentValueCaseInsensitive", agentCamel, "foo", "http://foo.bar/x/y", true, 2},
	{"ID_UserAgentValueCaseInsensitive", agentUpper, "foo", "http://foo.bar/a/b", false, 3},
	{"ID_UserAgentValueCaseInsensitive", agentLower, "foo", "http://foo.bar/a/b", false, 3},
	{"ID_UserAgentValueCaseInsensitive", agentCamel, "foo", "http://foo.bar/a/b", false, 3},

	{"GoogleOnly_AcceptUserAgentUpToFirstSpace", upToSpace, "Foo", "http://foo.bar/x/y", true, 4},
	{"GoogleOnly_AcceptUserAgentUpToFirstSpace", upToSpace, "Foo Bar", "http://foo.bar/x/y", false, 2},

	{"ID_GlobalGroups_Secondary", "", "FooBot", "http://foo.bar/x/y", true, 0},
	{"ID_GlobalGroups_Secondary", globalGroup, "FooBot", "http://foo.bar/x/y", false, 4},
	{"ID_GlobalGroups_Secondary", globalGroup, "BarBot", "http://foo.bar/x/y", true, 2},
	{"ID_GlobalGroups_Secondary", onlySpecific, "QuxBot", "http://foo.bar/x/y", true, 0},

	{"ID_AllowDisallow_Value_CaseSensitive", "user-agent: FooBot\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/y", false, 2},
	{"ID_AllowDisallow_Value_CaseSensitive", "user-agent: FooBot\ndisallow: /X/\n", "FooBot", "http://foo.bar/x/y", true, 0},

	{"ID_LongestMatch", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n", "FooBot", "http://foo.bar/x/page.html", false, 2},
	{"ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/page.html", true, 2},
	{"ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/", false, 3},
	{"ID_LongestMatch", "user-agent: FooBot\ndisallow: \nallow: \n", "FooBot", "http://foo.bar/x/page.html", true, 3},
	{"ID_LongestMatch", "user-agent: FooBot\ndisallow: /\nallow: /\n", "FooBot", "http://foo.bar/x/page.html", true, 3},
	{"ID_LongestMatch", "user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", "http://foo.bar/x", false, 2},
	{"ID_LongestMatch", "user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", "http://foo.bar/x/", true, 3},
	{"ID_LongestMatch", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n", "FooBot", "http://foo.bar/x/page.html", true, 3},
	{"ID_LongestMatch", "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", "http://foo.bar/page.html", false, 3},
	{"ID_LongestMatch", "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", "http://foo.bar/page", true, 2},
	{"ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot", "http://foo.bar/x/page.html", true, 2},
	{"ID_LongestMatch", "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot", "http://foo.bar/x/y.html", false, 3},
	{"ID_LongestMatch", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", "FooBot", "http://foo.bar/x/page", true, 0},
	{"ID_LongestMatch", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", "FooBot", "http://foo.bar/y/page", false, 4},

	{"ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n", "FooBot",
		"http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par", true, 3},
	{"ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n", "FooBot", "http://foo.bar/foo/bar/%E3%83%84", true, 3},
	{"ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n", "FooBot", "http://foo.bar/foo/bar/ツ", false, 2},
	{"ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n", "FooBot", "http://foo.bar/foo/bar/%E3%83%84", true, 3},
	{"ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n", "FooBot", "http://foo.bar/foo/bar/ツ", false, 2},
	{"ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n", "FooBot", "http://foo.bar/foo/bar/baz", false, 2},
	{"ID_Encoding", "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n", "FooBot", "http://foo.bar/foo/bar/%62%61%7A", true, 3},

	{"ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", "http://foo.bar/foo/bar/quz", false, 2},
	{"ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", "http://foo.bar/foo/quz", true, 0},
	{"ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", "http://foo.bar/foo//quz", true, 0},
	{"ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "FooBot", "http://foo.bar/foo/bax/quz", true, 0},
	{"ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", "http://foo.bar/foo/bar", false, 2},
	{"ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", "http://foo.bar/foo/bar/qux", true, 3},
	{"ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", "http://foo.bar/foo/bar/", true, 0},
	{"ID_SpecialCharacters", "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n", "FooBot", "http://foo.bar/foo/bar/baz", true, 0},
	{"ID_SpecialCharacters", "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", "FooBot", "http://foo.bar/foo/bar", true, 4},
	{"ID_SpecialCharacters", "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n", "FooBot", "http://foo.bar/foo/quz", false, 3},

	{"GoogleOnly_IndexHTMLisDirectory", indexHTML, "foobot", "http://foo.com/allowed-slash/", true, 2},
	{"GoogleOnly_IndexHTMLisDirectory", indexHTML, "foobot", "http://foo.com/allowed-slash/index.htm", false, 3},
	{"GoogleOnly_IndexHTMLisDirectory", indexHTML, "foobot", "http://foo.com/allowed-slash/index.html", true, 2},
	{"GoogleOnly_IndexHTMLisDirectory", indexHTML, "foobot", "http://foo.com/anyother-url", false, 3},

	{"GoogleOnly_LineTooLong", tooLong1, "FooBot", "http://foo.bar/fux", true, 0},
	{"GoogleOnly_LineTooLong", tooLong1, "FooBot", "http://foo.bar" + longDisallow + "/fux", false, 2},
	{"GoogleOnly_LineTooLong", tooLong2, "FooBot", "http://foo.bar/", false, 2},
	{"GoogleOnly_LineTooLong", tooLong2, "FooBot", "http://foo.bar" + longAllowA + "/qux", true, 3},
	{"GoogleOnly_LineTooLong", tooLong2, "FooBot", "http://foo.bar" + longAllowB + "/fux", true, 4},

	{"GoogleOnly_DocumentationChecks", docFish, "FooBot", "http://foo.bar/bar", false, 2},
	{"GoogleOnly_DocumentationChecks", docFish, "FooBot", "http://foo.bar/fish", true, 3},
	{"GoogleOnly_DocumentationChecks", docFish, "FooBot", "http://foo.bar/fish.html", true, 3},
	{"GoogleOnly_DocumentationChecks", docFish, "FooBot", "http://foo.bar/fish/salmon.html", true, 3},
	{"GoogleOnly_DocumentationChecks", docFish, "FooBot", "http://foo.bar/fishheads", true, 3},
	{"GoogleOnly_DocumentationChecks", docFish, "FooBot", "http://foo.bar/fishheads/yummy.html", true, 3},
	{"GoogleOnly_DocumentationChecks", docFish, "FooBot", "http://foo.bar/fish.html?id=anything", true, 3},
	{"GoogleOnly_DocumentationChecks", docFish, "FooBot", "http://foo.bar/Fish.asp", false, 2},
	{"GoogleOnly_DocumentationChecks", docFish, "FooBot", "http://foo.bar/catfish", false, 2},
	{"GoogleOnly_DocumentationChecks", docFish, "FooBot", "http://foo.bar/?id=fish", false, 2},

	{"GoogleOnly_DocumentationChecks", docFishStar, "FooBot", "http://foo.bar/bar", false, 2},
	{"GoogleOnly_DocumentationChecks", docFishStar, "FooBot", "http://foo.bar/fish", true, 3},
	{"GoogleOnly_DocumentationChecks", docFishStar, "FooBot", "http://foo.bar/fish.html", true, 3},
	{"GoogleOnly_DocumentationChecks", docFishStar, "FooBot", "http://foo.bar/fish/salmon.html", true, 3},
	{"GoogleOnly_DocumentationChecks", docFishStar, "FooBot", "http://foo.bar/fishheads", true, 3},
	{"GoogleOnly_DocumentationChecks", docFishStar, "FooBot", "http://foo.bar/fishheads/yummy.html", true, 3},
	{"GoogleOnly_DocumentationChecks", docFishStar, "FooBot", "http://foo.bar/fish.html?id=anything", true, 3},
	{"GoogleOnly_DocumentationChecks", docFishStar, "FooBot", "http://foo.bar/Fish.bar", false, 2},
	{"GoogleOnly_DocumentationChecks", docFishStar, "FooBot", "http://foo.bar/catfish", false, 2},
	{"GoogleOnly_DocumentationChecks", docFishStar, "FooBot", "http://foo.bar/?id=fish", false, 2},

	{"GoogleOnly_DocumentationChecks", docFishSlash, "FooBot", "http://foo.bar/bar", false, 2},
	{"GoogleOnly_DocumentationChecks", docFishSlash, "FooBot", "http://foo.bar/fish/", true, 3},
	{"GoogleOnly_DocumentationChecks", docFishSlash, "FooBot", "http://foo.bar/fish/salmon", true, 3},
	{"GoogleOnly_DocumentationChecks", docFishSlash, "FooBot", "http://foo.bar/fish/?salmon", true, 3},
	{"GoogleOnly_DocumentationChecks", docFishSlash, "FooBot", "http://foo.bar/fish/salmon.html", true, 3},
	{"GoogleOnly_DocumentationChecks", docFishSlash, "FooBot", "http://foo.bar/fish/?id=anything", true, 3},
	{"GoogleOnly_DocumentationChecks", docFishSlash, "FooBot", "http://foo.bar/fish", false, 2},
	{"GoogleOnly_DocumentationChecks", docFishSlash, "FooBot", "http://foo.bar/fish.html", false, 2},
	{"GoogleOnly_DocumentationChecks", docFishSlash, "FooBot", "http://foo.bar/Fish/Salmon.html", false, 2},

	{"GoogleOnly_DocumentationChecks", docPHP, "FooBot", "http://foo.bar/bar", false, 2},
	{"GoogleOnly_DocumentationChecks", docPHP, "FooBot", "http://foo.bar/filename.php", true, 3},
	{"GoogleOnly_DocumentationChecks", docPHP, "FooBot", "http://foo.bar/folder/filename.php", true, 3},
	{"GoogleOnly_DocumentationChecks", docPHP, "FooBot", "http://foo.bar/folder/filename.php?parameters", true, 3},
	{"GoogleOnly_DocumentationChecks", docPHP, "FooBot", "http://foo.bar//folder/any.php.file.html", true, 3},
	{"GoogleOnly_DocumentationChecks", docPHP, "FooBot", "http://foo.bar/filename.php/", true, 3},
	{"GoogleOnly_DocumentationChecks", docPHP, "FooBot", "http://foo.bar/index?f=filename.php/", true, 3},
	{"GoogleOnly_DocumentationChecks", docPHP, "FooBot", "http://foo.bar/php/", false, 2},
	{"GoogleOnly_DocumentationChecks", docPHP, "FooBot", "http://foo.bar/index?php", false, 2},
	{"GoogleOnly_DocumentationChecks", docPHP, "FooBot", "http://foo.bar/windows.PHP", false, 2},

	{"GoogleOnly_DocumentationChecks", docPHPEnd, "FooBot", "http://foo.bar/bar", false, 2},
	{"GoogleOnly_DocumentationChecks", docPHPEnd, "FooBot", "http://foo.bar/filename.php", true, 3},
	{"GoogleOnly_DocumentationChecks", docPHPEnd, "FooBot", "http://foo.bar/folder/filename.php", true, 3},
	{"GoogleOnly_DocumentationChecks", docPHPEnd, "FooBot", "http://foo.bar/filename.php?parameters", false, 2},
	{"GoogleOnly_DocumentationChecks", docPHPEnd, "FooBot", "http://foo.bar/filename.php/", false, 2},
	{"GoogleOnly_DocumentationChecks", docPHPEnd, "FooBot", "http://foo.bar/filename.php5", false, 2},
	{"GoogleOnly_DocumentationChecks", docPHPEnd, "FooBot", "http://foo.bar/php/", false, 2},
	{"GoogleOnly_DocumentationChecks", docPHPEnd, "FooBot", "http://foo.bar/filename?php", false, 2},
	{"GoogleOnly_DocumentationChecks", docPHPEnd, "FooBot", "http://foo.bar/aaaphpaaa", false, 2},
	{"GoogleOnly_DocumentationChecks", docPHPEnd, "FooBot", "http://foo.bar//windows.PHP", false, 2},

	{"GoogleOnly_DocumentationChecks", docFishPHP, "FooBot", "http://foo.bar/bar", false, 2},
	{"GoogleOnly_DocumentationChecks", docFishPHP, "FooBot", "http://foo.bar/fish.php", true, 3},
	{"GoogleOnly_DocumentationChecks", docFishPHP, "FooBot", "http://foo.bar/fishheads/catfish.php?parameters", true, 3},
	{"GoogleOnly_DocumentationChecks", docFishPHP, "FooBot", "http://foo.bar/Fish.PHP", false, 2},

	{"GoogleOnly_DocumentationChecks", "user-agent: FooBot\nallow: /p\ndisallow: /\n", "FooBot", "http://example.com/page", true, 2},
	{"GoogleOnly_DocumentationChecks", "user-agent: FooBot\nallow: /folder\ndisallow: /folder\n", "FooBot", "http://example.com/folder/page", true, 2},
	{"GoogleOnly_DocumentationChecks", "user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n", "FooBot", "http://example.com/page.htm", false, 3},
	{"GoogleOnly_DocumentationChecks", "user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", "http://example.com/", true, 2},
	{"GoogleOnly_DocumentationChecks", "user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", "http://example.com/page.html", false, 3},
}

// ownCases are ours: behaviour of Google's parser that its tests do not pin down, read from
// robots.cc, and what robotsmith needs to know (which line decided when groups are merged).
var ownCases = []matchCase{
	// A user's own group for GPTBot cancels another group's Disallow: the merged groups are one,
	// and Allow wins the tie (the trap of SPEC §9). The deciding line is the user's Allow.
	{"robots.cc merged groups", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: GPTBot\nAllow: /\n", "GPTBot", "http://a.b/x", true, 5},
	{"robots.cc merged groups", "User-agent: GPTBot\nDisallow: /\n\nUser-agent: GPTBot\nAllow: /\n", "OtherBot", "http://a.b/x", true, 0},
	// A group naming the crawler hides the "*" groups even when its only rule is empty.
	{"robots.cc ever_seen_specific_agent", "User-agent: *\nDisallow: /\nUser-agent: FooBot\nDisallow:\n", "FooBot", "http://a.b/x", true, 4},
	// "* " followed by more text is still the global agent; "*bot" is not.
	{"robots.cc HandleUserAgent", "User-agent: * FooBot\nDisallow: /\n", "BarBot", "http://a.b/x", false, 2},
	{"robots.cc HandleUserAgent", "User-agent: *bot\nDisallow: /\n", "BarBot", "http://a.b/x", true, 0},
	// The product token ends at the first character that is not a letter, '-' or '_'.
	{"robots.cc ExtractUserAgent", "User-agent: FooBot/2.1\nDisallow: /\n", "FooBot", "http://a.b/x", false, 2},
	{"robots.cc ExtractUserAgent", "User-agent: AI2Bot\nDisallow: /\n", "AI2Bot", "http://a.b/x", true, 0},
	// A group of several agents; blank lines and Sitemap lines do not end it.
	{"robots.cc HandleUserAgent", "User-agent: a\n\nSitemap: /s.xml\nUser-agent: FooBot\nDisallow: /x\n", "a", "http://a.b/x", false, 5},
	// Misspelt keys, missing colon, and key prefixes Google accepts.
	{"robots.cc KeyIsDisallow", "User-agent: *\nDisalow: /x\n", "FooBot", "http://a.b/x", false, 2},
	{"robots.cc KeyIsDisallow", "User-agent: *\ndisallaw: /x\n", "FooBot", "http://a.b/x", false, 2},
	{"robots.cc KeyIsUserAgent", "User agent: FooBot\nDisallow: /x\n", "FooBot", "http://a.b/x", false, 2},
	{"robots.cc KeyIsUserAgent", "useragent: FooBot\nDisallow: /x\n", "FooBot", "http://a.b/x", false, 2},
	{"robots.cc KeyIsDisallow", "User-agent: *\nDisallowed: /x\n", "FooBot", "http://a.b/x", false, 2},
	{"robots.cc KeyIsAllow", "User-agent: *\nDisallow: /\nAlow: /x\n", "FooBot", "http://a.b/x", false, 2},
	{"robots.cc GetKeyAndValueFrom", "User-agent: *\nDisallow /x y\n", "FooBot", "http://a.b/x", true, 0},
	// Percent-encoding: lower-case escapes in a rule are upper-cased; the path is taken as given.
	{"robots.cc MaybeEscapePattern", "User-agent: *\nDisallow: /caf%c3%a9\n", "FooBot", "http://a.b/caf%C3%A9", false, 2},
	{"robots.cc MaybeEscapePattern", "User-agent: *\nDisallow: /café\n", "FooBot", "http://a.b/caf%C3%A9/x", false, 2},
	// '$' is special only at the end; '*' before it still spans.
	{"robots.cc Matches", "User-agent: *\nDisallow: /a$b\n", "FooBot", "http://a.b/a$b/c", false, 2},
	{"robots.cc Matches", "User-agent: *\nDisallow: /*$\n", "FooBot", "http://a.b/anything", false, 2},
	{"robots.cc Matches", "User-agent: *\nDisallow: /$\n", "FooBot", "http://a.b/x", true, 0},
	// Of equal rules of one kind, the first line is named.
	{"robots.cc HandleDisallow", "User-agent: *\nDisallow: /x\nDisallow: /x\n", "FooBot", "http://a.b/x", false, 2},
	// A NUL byte ends the line, as in Google's C-string parser.
	{"robots.cc GetKeyAndValueFrom", "User-agent: *\nDisallow: /x\x00y\n", "FooBot", "http://a.b/xz", false, 2},
	// RFC 9309 section 2.2.2: "The /robots.txt URI is implicitly allowed": no rule decides it, not
	// Disallow: / nor a line naming it. Only that URI: with a query it is another URI, and the
	// rules decide; /robots.txt below a folder is no robots.txt at all.
	{"RFC 9309 2.2.2", sysTest, "FooBot", "http://foo.bar/robots.txt", true, 0},
	{"RFC 9309 2.2.2", "User-agent: *\nDisallow: /robots.txt\n", "FooBot", "http://a.b/robots.txt", true, 0},
	{"RFC 9309 2.2.2", "User-agent: *\nDisallow: /*.txt$\n", "FooBot", "http://a.b/robots.txt", true, 0},
	{"RFC 9309 2.2.2", sysTest, "FooBot", "http://foo.bar/robots.txt?x=1", false, 2},
	{"RFC 9309 2.2.2", sysTest, "FooBot", "http://foo.bar/docs/robots.txt", false, 2},
	{"RFC 9309 2.2.2", sysTest, "FooBot", "http://foo.bar/Robots.txt", false, 2},
}

func TestGoogleCases(t *testing.T) {
	if len(googleCases) < 80 {
		t.Fatalf("only %d cases from Google's suite", len(googleCases))
	}
	for i, tc := range append(googleCases[:len(googleCases):len(googleCases)], ownCases...) {
		robots := tc.robots
		if len(robots) > 60 {
			robots = robots[:60] + "…"
		}
		t.Run(fmt.Sprintf("%03d_%s", i, tc.origin), func(t *testing.T) {
			f := Parse([]byte(tc.robots))
			d := f.Decide(tc.agent, PathOf(tc.url))
			line := 0
			if d.Rule != nil {
				line = d.Rule.Num
			}
			if d.Allowed != tc.allowed || line != tc.line {
				t.Errorf("%q for %q at %.80q: got allowed %v by line %d, want %v by line %d",
					robots, tc.agent, tc.url, d.Allowed, line, tc.allowed, tc.line)
			}
		})
	}
}

// TestValidAgent follows ID_VerifyValidUserAgentsToObey.
func TestValidAgent(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"Foobot", true},
		{"Foobot-Bar", true},
		{"Foo_Bar", true},
		{"", false},
		{"ツ", false},
		{"Foobot*", false},
		{" Foobot ", false},
		{"Foobot/2.1", false},
		{"Foobot Bar", false},
		{"AI2Bot", false}, // ours: digits are not in RFC 9309's product token
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ValidAgent(tc.name); got != tc.want {
				t.Errorf("ValidAgent(%q) = %v, want %v", tc.name, got, tc.want)
			}
		})
	}
}

// TestPathOf follows TestGetPathParamsQuery.
func TestPathOf(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"", "/"},
		{"http://www.example.com", "/"},
		{"http://www.example.com/", "/"},
		{"http://www.example.com/a", "/a"},
		{"http://www.example.com/a/", "/a/"},
		{"http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/"},
		{"http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"},
		{"example.com", "/"},
		{"example.com/", "/"},
		{"example.com/a", "/a"},
		{"example.com/a/", "/a/"},
		{"example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"},
		{"a", "/"},
		{"a/", "/"},
		{"/a", "/a"},
		{"a/b", "/b"},
		{"example.com?a", "/?a"},
		{"example.com/a;b#c", "/a;b"},
		{"//a/b/c", "/b/c"},
		{"http://a.b#x/y", "/"}, // ours: a fragment before the path
	} {
		t.Run(tc.url, func(t *testing.T) {
			if got := PathOf(tc.url); got != tc.want {
				t.Errorf("PathOf(%q) = %q, want %q", tc.url, got, tc.want)
			}
		})
	}
}

// TestEscapePattern: what robotsmith writes for a config's pattern is what Parse reads back, and
// matches the path a crawler requests.
func TestEscapePattern(t *testing.T) {
	for _, tc := range []struct{ in, want, path string }{
		{"/a b/", "/a%20b/", "/a%20b/x"},
		{"/résumé", "/r%C3%A9sum%C3%A9", "/r%C3%A9sum%C3%A9"},
		{"/a#b", "/a%23b", "/a%23b"},
		{"/100%", "/100%25", "/100%25"},
		{"/%zz", "/%25zz", "/%25zz"},
		{"/ok%2fslash", "/ok%2Fslash", "/ok%2Fslash"},
		{"/*.pdf$", "/*.pdf$", "/files/x.pdf"},
		{"/tab\there", "/tab%09here", "/tab%09here"},
		{"/q?x=1&y=[2]", "/q?x=1&y=[2]", "/q?x=1&y=[2]"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got := EscapePattern(tc.in)
			if got != tc.want {
				t.Fatalf("EscapePattern(%q) = %q, want %q", tc.in, got, tc.want)
			}
			f := Parse([]byte("User-agent: *\nDisallow: " + got + "\n"))
			if r := f.Groups[0].Rules[0]; r.Pattern != got {
				t.Errorf("Parse reads Disallow: %s as pattern %q", got, r.Pattern)
			}
			if d := f.Decide("x", tc.path); d.Allowed {
				t.Errorf("Disallow: %s does not keep crawlers from %s", got, tc.path)
			}
		})
	}
}

// TestEscape follows TestMaybeEscapePattern.
func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://www.example.com", "http://www.example.com"},
		{"/a/b/c", "/a/b/c"},
		{"á", "%C3%A1"},
		{"%aa", "%AA"},
		{"/SanJoséSellers", "/SanJos%C3%A9Sellers"}, // the example in robots.cc
		{"%a", "%a"}, // ours: not an escape, left alone
		{"%zz/é", "%zz/%C3%A9"},
		{"%2f%2F", "%2F%2F"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got := Escape(tc.in); got != tc.want {
				t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
