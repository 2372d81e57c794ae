using Microsoft.AspNetCore.DataProtection.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore;
using NzbDav.Data.Entities;

namespace NzbDav.Data;

/// <summary>
/// The library store. Create short-lived instances through <see cref="IDbContextFactory{TContext}"/>.
/// Any change to the model needs a migration made with <c>dotnet ef migrations add</c> (a test enforces it;
/// see docs/architecture.md).
/// </summary>
public sealed class NzbDavDbContext(DbContextOptions<NzbDavDbContext> options) : DbContext(options), IDataProtectionKeyContext
{
    /// <summary>The index of job folders (DavItems with no parent) by path.</summary>
    public const string JobFoldersIndex = "IX_DavItems_JobFolders";

    /// <summary>The index of jobs in history order, which the history page names (<c>INDEXED BY</c>).</summary>
    public const string HistoryOrderIndex = "IX_Jobs_HistoryOrder";

    /// <summary>The index of a category's jobs in history order, which SABnzbd's history names.</summary>
    public const string CategoryHistoryOrderIndex = "IX_Jobs_CategoryHistoryOrder";

    public DbSet<Job> Jobs => Set<Job>();

    /// <summary>
    /// The jobs, read through <paramref name="index"/> (<see cref="HistoryOrderIndex"/> or
    /// <see cref="CategoryHistoryOrderIndex"/>): SQLite is told to (<c>INDEXED BY</c>), since left to
    /// itself it filters through the Status index and sorts every match; PostgreSQL's planner walks an
    /// index in the order asked for when the read is cut at a page, and takes no such hint.
    /// </summary>
    public IQueryable<Job> JobsThrough(string index)
    {
        const string HistoryOrder = "SELECT * FROM \"Jobs\" INDEXED BY \"" + HistoryOrderIndex + "\"";
        const string CategoryHistoryOrder = "SELECT * FROM \"Jobs\" INDEXED BY \"" + CategoryHistoryOrderIndex + "\"";
        var sql = index switch
        {
            HistoryOrderIndex => HistoryOrder,
            CategoryHistoryOrderIndex => CategoryHistoryOrder,
            _ => throw new ArgumentOutOfRangeException(nameof(index), index, "Not an index of Jobs."),
        };
        return Database.IsSqlite() ? Jobs.FromSqlRaw(sql) : Jobs;
    }

    public DbSet<JobNzb> JobNzbs => Set<JobNzb>();

    public DbSet<DavItem> DavItems => Set<DavItem>();

    public DbSet<ConfigItem> ConfigItems => Set<ConfigItem>();

    public DbSet<FileHealth> FileHealth => Set<FileHealth>();

    public DbSet<HealthAuditEntry> HealthAudit => Set<HealthAuditEntry>();

    public DbSet<KnownMissingArticle> KnownMissingArticles => Set<KnownMissingArticle>();

    public DbSet<ArrRepairedItem> ArrRepairedItems => Set<ArrRepairedItem>();

    public DbSet<TrafficHour> TrafficHours => Set<TrafficHour>();

    public DbSet<TrafficFileDay> TrafficFileDays => Set<TrafficFileDay>();

    public DbSet<SegmentPatch> SegmentPatches => Set<SegmentPatch>();

    public DbSet<NodeRecord> Nodes => Set<NodeRecord>();

    /// <summary>Each node's share of each provider's connection cap (see <see cref="ProviderLeaseRecord"/>).</summary>
    public DbSet<ProviderLeaseRecord> ProviderLeases => Set<ProviderLeaseRecord>();

    /// <summary>The web UI's Data Protection key ring when the library is in PostgreSQL (shared by every node; on SQLite it stays in the data directory).</summary>
    public DbSet<DataProtectionKey> DataProtectionKeys => Set<DataProtectionKey>();

    protected override void OnModelCreating(ModelBuilder modelBuilder)
    {
        modelBuilder.Entity<TrafficHour>(hour =>
        {
            hour.HasKey(h => new { h.HourStart, h.Consumer, h.Provider });
        });
        modelBuilder.Entity<TrafficFileDay>(day =>
        {
            day.HasKey(d => new { d.DayStart, d.Path });
        });
        modelBuilder.Entity<Job>(job =>
        {
            job.ToTable("Jobs");
            job.HasKey(j => j.Id);
            job.HasIndex(j => j.NzoId).IsUnique();
            job.HasIndex(j => new { j.Status, j.AddedAt });
            job.HasIndex(j => j.NzbHash);
            // The history's count and size (SABnzbd's, per category) read from the index alone, the
            // distinct categories of /content walked through it, and a category's completed jobs
            // (/completed) read from it.
            job.HasIndex(j => new { j.Category, j.Status, j.RemovedFromHistory, j.TotalBytes, j.Id });
            job.HasIndex(j => new { j.Status, j.RemovedFromHistory });
            // History pages in their order without sorting the whole history (named in the query).
            job.HasIndex(j => new { j.CompletedAt, j.AddedAt }).HasDatabaseName(HistoryOrderIndex);
            job.HasIndex(j => new { j.Category, j.CompletedAt }).HasDatabaseName(CategoryHistoryOrderIndex);
        });

        modelBuilder.Entity<JobNzb>(nzb =>
        {
            nzb.ToTable("JobNzbs");
            nzb.HasKey(n => n.JobId);
            nzb.HasOne<Job>().WithOne().HasForeignKey<JobNzb>(n => n.JobId).OnDelete(DeleteBehavior.Cascade);
        });

        modelBuilder.Entity<DavItem>(item =>
        {
            item.ToTable("DavItems");
            item.HasKey(i => i.Id);
            item.HasIndex(i => i.Path).IsUnique();
            // A sub-folder's children. Partial, so that a category's job folders (ParentId null)
            // are never looked for through it but through the index below.
            item.HasIndex(i => i.ParentId).HasFilter("\"ParentId\" IS NOT NULL");
            // The job folders (ParentId null): a category's listing is one range of paths read from
            // this index alone, not a row per job scattered through a table of every file.
            item.HasIndex(i => new { i.Path, i.Name, i.Id, i.JobId, i.IsDirectory, i.Size, i.ParentId, i.Modified })
                .HasFilter("\"ParentId\" IS NULL").HasDatabaseName(JobFoldersIndex);
            item.HasOne<Job>().WithMany().HasForeignKey(i => i.JobId).OnDelete(DeleteBehavior.Cascade);
        });

        modelBuilder.Entity<ConfigItem>(config =>
        {
            config.ToTable("ConfigItems");
            config.HasKey(c => c.Key);
        });

        modelBuilder.Entity<FileHealth>(health =>
        {
            health.ToTable("FileHealth");
            health.HasKey(h => h.DavItemId);
            health.HasIndex(h => h.NextCheckAt);
            health.HasIndex(h => h.State);
            health.HasIndex(h => h.JobId);
            // Files in a repair state (action needed, PAR2 repair under way): the Health page counts
            // them and a start resumes the repairs a stop cut short, without reading every file's row.
            health.HasIndex(h => h.Repair);
            // Only the few files being checked carry a claim: the index holds just those.
            health.HasIndex(h => h.CheckClaimedBy).HasFilter("\"CheckClaimedBy\" IS NOT NULL");
            health.HasOne<DavItem>().WithOne().HasForeignKey<FileHealth>(h => h.DavItemId).OnDelete(DeleteBehavior.Cascade);
        });

        modelBuilder.Entity<HealthAuditEntry>(audit =>
        {
            audit.ToTable("HealthAudit");
            audit.HasKey(a => a.Id);
            audit.HasIndex(a => a.At);
            audit.HasIndex(a => a.DavItemId);
        });

        modelBuilder.Entity<KnownMissingArticle>(known =>
        {
            known.ToTable("KnownMissingArticles");
            known.HasKey(k => k.MessageId);
            known.HasIndex(k => k.FoundAt);
        });

        modelBuilder.Entity<SegmentPatch>(patch =>
        {
            patch.ToTable("SegmentPatches");
            patch.HasKey(p => new { p.JobId, p.MessageId });
            patch.HasOne<Job>().WithMany().HasForeignKey(p => p.JobId).OnDelete(DeleteBehavior.Cascade);
        });

        modelBuilder.Entity<NodeRecord>(node =>
        {
            node.ToTable("Nodes");
            node.HasKey(n => n.Id);
        });

        modelBuilder.Entity<ProviderLeaseRecord>(lease =>
        {
            lease.ToTable("ProviderLeases");
            lease.HasKey(l => new { l.NodeId, l.Provider });
            lease.HasOne<NodeRecord>().WithMany().HasForeignKey(l => l.NodeId).OnDelete(DeleteBehavior.Cascade);
        });

        modelBuilder.Entity<ArrRepairedItem>(repaired =>
        {
            repaired.ToTable("ArrRepairedItems");
            repaired.HasKey(r => r.Id);
            repaired.HasIndex(r => new { r.Instance, r.ItemId, r.RepairedAt });
        });

        if (Database.ProviderName == LibraryStore.PostgresProviderName)
        {
            // Text compares and sorts byte by byte, as on SQLite: a category's job folders are one
            // range of paths, which a language collation (a database made with en_US.UTF-8) would
            // break by sorting '/' among the letters.
            foreach (var property in modelBuilder.Model.GetEntityTypes().SelectMany(e => e.GetProperties()).Where(p => p.ClrType == typeof(string)))
            {
                property.SetCollation("C");
            }
        }
    }
}
