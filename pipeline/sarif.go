package pipeline

import (
	"net/url"
	"strings"

	"github.com/robotsmith/robotsmith/problem"
)

// SARIF is `check --format sarif` (and build's): a run's problems as a SARIF 2.1.0 log for code
// scanning (SPEC §1), one result for each error, finding and warning, and a rule for each code of
// the registry (problem.All), with its name, summary, help and page in docs/reference/codes.md.
// Every result's file is a URI relative to one base (BaseID and BaseURI: the site's root, or the
// repository's under GitHub Actions), as Locate places it.
type SARIF struct {
	Version string // robotsmith's version
	// Errors, then Findings and Warnings, are the results, in that order.
	Errors, Findings, Warnings []problem.Problem
	// BaseID names the folder every result's URI is relative to ("SITEROOT"), and BaseURI is that
	// folder as a URI ending in "/" (file:///home/me/site/), or "" when the log leaves it out.
	BaseID, BaseURI string
	// Locate gives a problem's file (as robotsmith prints it) as a slash path relative to the
	// base, or, false, as an absolute slash path for a file outside it, which a result names by
	// its file URI. Nil takes every file as relative to the base already.
	Locate func(file string) (path string, relative bool)
}

// The SARIF log's constants: its schema (the OASIS standard's, errata 01), robotsmith's home and
// the page of the manual each rule's helpUri points into.
const (
	sarifSchema  = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	homepage     = "https://github.com/robotsmith/robotsmith"
	codesPageURI = homepage + "/blob/main/docs/reference/codes.md"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifact `json:"originalUriBaseIds,omitempty"`
	Results            []sarifResult            `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	Name                 string       `json:"name"`
	ShortDescription     sarifText    `json:"shortDescription"`
	FullDescription      sarifText    `json:"fullDescription"`
	Help                 sarifText    `json:"help"`
	HelpURI              string       `json:"helpUri"`
	DefaultConfiguration sarifDefault `json:"defaultConfiguration"`
}

type sarifDefault struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Level            string          `json:"level"`
	Message          sarifText       `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
}

type sarifLocation struct {
	ID               *int          `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifText    `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// sarifLevel is the SARIF level of a severity: error for an error and a finding (each fails
// check), warning for a warning.
func sarifLevel(s problem.Severity) string {
	if s == problem.Warning {
		return "warning"
	}
	return "error"
}

// codeAnchor is the fragment of a code's section in docs/reference/codes.md, as GitHub makes it
// from the heading "RS0103 noindex-blocked-by-robots-txt".
func codeAnchor(c problem.Code) string {
	return strings.ToLower(c.String()) + "-" + c.Name()
}

// MarshalJSON writes the SARIF log: one run, robotsmith's.
func (s SARIF) MarshalJSON() ([]byte, error) {
	all := problem.All()
	index := map[problem.Code]int{}
	rules := make([]sarifRule, 0, len(all))
	for i, c := range all {
		index[c.Code] = i
		rules = append(rules, sarifRule{
			ID:                   c.Code.String(),
			Name:                 c.Name,
			ShortDescription:     sarifText{c.Summary},
			FullDescription:      sarifText{c.Help},
			Help:                 sarifText{c.Help},
			HelpURI:              codesPageURI + "#" + codeAnchor(c.Code),
			DefaultConfiguration: sarifDefault{sarifLevel(c.Severity)},
		})
	}
	run := sarifRun{
		Tool:    sarifTool{sarifDriver{Name: "robotsmith", Version: s.Version, InformationURI: homepage, Rules: rules}},
		Results: []sarifResult{},
	}
	if s.BaseID != "" && s.BaseURI != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifact{s.BaseID: {URI: s.BaseURI}}
	}
	for _, list := range [][]problem.Problem{s.Errors, s.Findings, s.Warnings} {
		for _, p := range list {
			r := sarifResult{RuleID: p.Code.String(), RuleIndex: index[p.Code], Level: sarifLevel(p.Severity),
				Message: sarifText{p.Msg}, Locations: []sarifLocation{}}
			if loc, ok := s.location(p.Position); ok {
				r.Locations = append(r.Locations, loc)
			}
			for _, rel := range p.Related {
				loc, ok := s.location(rel.Position)
				if !ok {
					continue
				}
				id := len(r.RelatedLocations) + 1
				loc.ID, loc.Message = &id, &sarifText{rel.Msg}
				r.RelatedLocations = append(r.RelatedLocations, loc)
			}
			run.Results = append(run.Results, r)
		}
	}
	return marshal(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// location is pos as a SARIF location; false for a position of no file (an option, the
// environment), which a result leaves out.
func (s SARIF) location(pos problem.Position) (sarifLocation, bool) {
	if pos.File == "" {
		return sarifLocation{}, false
	}
	p, relative := pos.File, true
	if s.Locate != nil {
		p, relative = s.Locate(pos.File)
	}
	art := sarifArtifact{URI: escapePath(p)}
	if relative {
		art.URIBaseID = s.BaseID
	} else {
		art.URI = "file://" + art.URI
	}
	loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: art}}
	if pos.Line > 0 {
		loc.PhysicalLocation.Region = &sarifRegion{StartLine: pos.Line, StartColumn: pos.Col}
	}
	return loc, true
}

// escapePath is a slash path as a URI reference's path: each segment percent-encoded (a file
// named "Seasonal Offer.md" is Seasonal%20Offer.md), the slashes kept.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		segs[i] = url.PathEscape(seg)
	}
	return strings.Join(segs, "/")
}

// FileURI is the folder dir (absolute, slash separated) as the base URI a SARIF log gives it:
// file:///home/me/site/.
func FileURI(dir string) string {
	dir = escapePath(strings.TrimSuffix(dir, "/"))
	if !strings.HasPrefix(dir, "/") {
		dir = "/" + dir // a Windows path: file:///C:/site/
	}
	return "file://" + dir + "/"
}
