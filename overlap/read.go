package overlap

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/skillrepo/skillrepo/skillrepo/skill"
)

// maxSkillFile is the most of a SKILL.md [ReadSkill] reads: the measure
// reads only the description and the start of the body, and no file may
// make a scan of the library read unbounded input.
const maxSkillFile = 256 << 10

// FromSKILLMD is the skill a SKILL.md describes, for the measure: its
// description and body. A file without valid frontmatter is all body. The
// description is read from its frontmatter line (plain, quoted, or a
// folded or literal block) without decoding the YAML: at 10,000 skills a
// YAML decoder costs more than the whole measure, and the measure only
// needs the words.
func FromSKILLMD(name, category string, content []byte) Skill {
	s := Skill{Name: name, Category: category}
	fm, body, _, err := skill.Split(content)
	if err != nil {
		s.Body = string(content)
		return s
	}
	s.Description = description(fm)
	s.Body = body
	return s
}

// description finds the description value in frontmatter text.
func description(fm string) string {
	lines := strings.Split(fm, "\n")
	for i, l := range lines {
		rest, ok := strings.CutPrefix(l, "description:")
		if !ok {
			continue
		}
		v := strings.TrimSpace(rest)
		if v == "" || v[0] == '|' || v[0] == '>' {
			var b strings.Builder
			for _, cont := range lines[i+1:] {
				if cont != "" && cont[0] != ' ' && cont[0] != '\t' {
					break
				}
				b.WriteString(strings.TrimSpace(cont))
				b.WriteByte(' ')
			}
			return strings.TrimSpace(b.String())
		}
		return strings.Trim(v, `"'`)
	}
	return ""
}

// ReadSkill reads dir/SKILL.md from fsys (a work tree, a commit) as
// [FromSKILLMD] does; the skill's name is the folder's base name and its
// category the folder above, as skill_manage names them. At most 256 KiB
// of the file is read.
func ReadSkill(fsys fs.FS, dir string) (Skill, error) {
	f, err := fsys.Open(path.Join(dir, "SKILL.md"))
	if err != nil {
		return Skill{}, fmt.Errorf("read skill %s: %w", dir, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSkillFile))
	if err != nil && !errors.Is(err, io.EOF) {
		return Skill{}, fmt.Errorf("read skill %s: %w", dir, err)
	}
	category := path.Dir(dir)
	if category == "." {
		category = ""
	}
	return FromSKILLMD(path.Base(dir), category, b), nil
}

// ReadSkills reads the skills in dirs from fsys with [ReadSkill]; the
// folders whose SKILL.md cannot be read are returned apart.
func ReadSkills(fsys fs.FS, dirs []string) (skills []Skill, unreadable []string) {
	skills = make([]Skill, 0, len(dirs))
	for _, d := range dirs {
		s, err := ReadSkill(fsys, d)
		if err != nil {
			unreadable = append(unreadable, d)
			continue
		}
		skills = append(skills, s)
	}
	return skills, unreadable
}
