package redact

// Test helpers: the rules of the default set always compile (TestDefaultRulesCompile), so an
// error here is a test failure by panic.

func (d *Detector) mustScan(path, text string, start int) []Secret {
	s, err := d.Scan(path, text, start)
	if err != nil {
		panic(err)
	}
	return s
}

func (d *Detector) mustScanPath(path string) []Secret {
	s, err := d.ScanPath(path)
	if err != nil {
		panic(err)
	}
	return s
}

func (d *Detector) mustFind(text string) []Found {
	f, err := d.Find(text)
	if err != nil {
		panic(err)
	}
	return f
}
