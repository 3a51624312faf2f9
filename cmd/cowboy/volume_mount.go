package main

import (
	"fmt"
	"os"

	"github.com/cowboy-chain/cowboy/cbfs"
	"github.com/cowboy-chain/cowboy/cbfs/mount"
	"github.com/spf13/cobra"
)

// volumeMountCmd serves a volume as a FUSE file system until Ctrl-C or an
// external unmount (fusermount3 -u DIR).
func (a *app) volumeMountCmd() *cobra.Command {
	var kf keyFlags
	var cache string
	cmd := &cobra.Command{
		Use:     "mount NAME DIR",
		Example: "  cowboy volume mount logs /mnt/logs --from dev0",
		Short:   "Mount a volume as a directory (FUSE): ls, cat, cp, write, rm, mv",
		Long: `Mounts the volume on DIR until Ctrl-C (or fusermount3 -u DIR). A file is
fetched once into a local cache when opened and uploaded again when a
changed file is closed; mv re-uploads under the new path. Needs /dev/fuse
and fusermount3 (apt-get install fuse3). See docs/cbfs.md.`,
		Args: args("NAME", "DIR"),
		RunE: func(cmd *cobra.Command, argv []string) error {
			c, v, cl, err := a.openVolume(argv[0], kf)
			if err != nil {
				return err
			}
			defer cl.Close()
			if cache == "" {
				if cache, err = os.MkdirTemp("", "cbfs-cache-"); err != nil {
					return fmt.Errorf("cache dir: %w", err)
				}
				defer os.RemoveAll(cache)
			}
			f := mount.New(&mount.ClusterStore{Cluster: cl, Volume: v, Params: cbfs.Params{K: c.K, M: c.M, SegmentSize: c.SegSize}}, cache)
			f.Logf = func(format string, args ...any) { fmt.Fprintf(a.stderr, format+"\n", args...) }
			srv, err := f.Mount(cmd.Context(), argv[1])
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "mounted %s on %s (Ctrl-C or `fusermount3 -u %s` unmounts)\n", argv[0], argv[1], argv[1])
			done := make(chan struct{})
			go func() { srv.Wait(); close(done) }()
			select {
			case <-done:
			case <-cmd.Context().Done():
				if err := srv.Unmount(); err != nil {
					return fmt.Errorf("unmount %s: %w", argv[1], err)
				}
				<-done
			}
			return nil
		},
	}
	kf.add(cmd)
	cmd.Flags().StringVar(&cache, "cache", "", "keep cached file contents in `DIR` (default: a temporary directory removed on exit)")
	return cmd
}
