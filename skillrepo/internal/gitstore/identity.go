package gitstore

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/object"
)

// Signatures resolves author and committer the way git does: the
// GIT_{AUTHOR,COMMITTER}_{NAME,EMAIL,DATE} variables first, then user.name
// and user.email (author.name and author.email first) from git's
// configuration, read as git reads it (gitconfig.go).
// Unlike git we do not refuse to commit without an identity: an agent on a
// fresh machine must still be able to record what it learned, so the
// fallback is "skillrepo <skillrepo@localhost>".
func (l *Repo) Signatures() (author, committer object.Signature, err error) {
	name, email := l.configIdentity()
	now := l.Now()
	author = object.Signature{Name: name, Email: email, When: now}
	committer = author
	fill := func(sig *object.Signature, prefix string) error {
		if v := l.Getenv(prefix + "_NAME"); v != "" {
			sig.Name = v
		}
		if v := l.Getenv(prefix + "_EMAIL"); v != "" {
			sig.Email = v
		}
		if v := l.Getenv(prefix + "_DATE"); v != "" {
			t, err := parseGitDate(v)
			if err != nil {
				return fmt.Errorf("%s_DATE: %w", prefix, err)
			}
			sig.When = t
		}
		return nil
	}
	if err := fill(&author, "GIT_AUTHOR"); err != nil {
		return author, committer, err
	}
	if err := fill(&committer, "GIT_COMMITTER"); err != nil {
		return author, committer, err
	}
	if !l.identityWarned && (author.Email == fallbackEmail || committer.Email == fallbackEmail) {
		// Said once per repository opened: every commit of the command
		// carries the same stand-in.
		l.identityWarned = true
		l.warn(fmt.Sprintf("no git identity is set, so commits are authored %q; set yours with: git config --global user.name \"Your Name\" && git config --global user.email you@example.com", fallbackName+" <"+fallbackEmail+">"))
	}
	return author, committer, nil
}

// The identity of a commit when git knows none.
const (
	fallbackName  = "skillrepo"
	fallbackEmail = "skillrepo@localhost"
)

func (l *Repo) configIdentity() (name, email string) {
	if l.identity[0] != "" {
		return l.identity[0], l.identity[1]
	}
	name, email = fallbackName, fallbackEmail
	entries, _ := l.readGitConfig() // an unreadable config: a write refuses first
	var user, author [2]string
	for _, e := range entries {
		switch e.key {
		case "user.name":
			user[0] = e.value
		case "user.email":
			user[1] = e.value
		case "author.name":
			author[0] = e.value
		case "author.email":
			author[1] = e.value
		}
	}
	name = cmp.Or(author[0], user[0], name)
	email = cmp.Or(author[1], user[1], email)
	l.identity = [2]string{name, email}
	return name, email
}

// parseGitDate accepts the date forms git's GIT_*_DATE takes that people
// actually use: "@<unix> <tz>", "<unix> <tz>", RFC 3339 / ISO 8601,
// "2006-01-02 15:04:05 -0700" and RFC 2822.
func parseGitDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if f := strings.Fields(strings.TrimPrefix(s, "@")); len(f) >= 1 && len(f) <= 2 {
		if sec, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			loc := time.UTC
			if len(f) == 2 {
				tz, err := time.Parse("-0700", f[1])
				if err != nil {
					return time.Time{}, fmt.Errorf("bad time zone %q", f[1])
				}
				loc = tz.Location()
			}
			return time.Unix(sec, 0).In(loc), nil
		}
	}
	for _, layout := range []string{
		time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05",
		time.RFC1123Z, "Mon, 2 Jan 2006 15:04:05 -0700", "Mon Jan 2 15:04:05 2006 -0700",
	} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("unrecognised date %q", s)
}
