using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;

namespace NzbDav.Data.Migrations;

/// <summary>The model as of the newest migration; update it by hand with every new migration.</summary>
[DbContext(typeof(NzbDavDbContext))]
public sealed class NzbDavDbContextModelSnapshot : ModelSnapshot
{
    private const string JobType = "NzbDav.Data.Entities.Job";

    protected override void BuildModel(ModelBuilder modelBuilder)
    {
        modelBuilder.HasAnnotation("ProductVersion", "10.0.14");

        modelBuilder.Entity("NzbDav.Data.Entities.ConfigItem", b =>
        {
            b.Property<string>("Key").HasColumnType("TEXT");
            b.Property<string>("Value").IsRequired().HasColumnType("TEXT");
            b.HasKey("Key");
            b.ToTable("ConfigItems");
        });

        modelBuilder.Entity("NzbDav.Data.Entities.DavItem", b =>
        {
            b.Property<Guid>("Id").ValueGeneratedOnAdd().HasColumnType("TEXT");
            b.Property<bool>("IsDirectory").HasColumnType("INTEGER");
            b.Property<Guid>("JobId").HasColumnType("TEXT");
            b.Property<byte[]>("Layout").HasColumnType("BLOB");
            b.Property<string>("Name").IsRequired().HasColumnType("TEXT");
            b.Property<Guid?>("ParentId").HasColumnType("TEXT");
            b.Property<string>("Path").IsRequired().HasColumnType("TEXT");
            b.Property<long>("Size").HasColumnType("INTEGER");
            b.HasKey("Id");
            b.HasIndex("JobId");
            b.HasIndex("ParentId");
            b.HasIndex("Path").IsUnique();
            b.ToTable("DavItems");
        });

        modelBuilder.Entity(JobType, b =>
        {
            b.Property<Guid>("Id").ValueGeneratedOnAdd().HasColumnType("TEXT");
            b.Property<DateTime>("AddedAt").HasColumnType("TEXT");
            b.Property<string>("Category").IsRequired().HasColumnType("TEXT");
            b.Property<DateTime?>("CompletedAt").HasColumnType("TEXT");
            b.Property<string>("FailMessage").HasColumnType("TEXT");
            b.Property<string>("Name").IsRequired().HasColumnType("TEXT");
            b.Property<string>("NzbHash").IsRequired().HasColumnType("TEXT");
            b.Property<string>("NzoId").IsRequired().HasColumnType("TEXT");
            b.Property<string>("Password").HasColumnType("TEXT");
            b.Property<int>("Priority").HasColumnType("INTEGER");
            b.Property<int>("Status").HasColumnType("INTEGER");
            b.Property<string>("StoragePath").HasColumnType("TEXT");
            b.Property<long>("TotalBytes").HasColumnType("INTEGER");
            b.HasKey("Id");
            b.HasIndex("NzbHash");
            b.HasIndex("NzoId").IsUnique();
            b.HasIndex("Status", "AddedAt");
            b.ToTable("Jobs");
        });

        modelBuilder.Entity("NzbDav.Data.Entities.JobNzb", b =>
        {
            b.Property<Guid>("JobId").HasColumnType("TEXT");
            b.Property<byte[]>("GzipData").IsRequired().HasColumnType("BLOB");
            b.Property<long>("Length").HasColumnType("INTEGER");
            b.HasKey("JobId");
            b.ToTable("JobNzbs");
        });

        modelBuilder.Entity("NzbDav.Data.Entities.DavItem", b =>
            b.HasOne(JobType, null).WithMany().HasForeignKey("JobId").OnDelete(DeleteBehavior.Cascade).IsRequired());

        modelBuilder.Entity("NzbDav.Data.Entities.JobNzb", b =>
            b.HasOne(JobType, null).WithOne().HasForeignKey("NzbDav.Data.Entities.JobNzb", "JobId").OnDelete(DeleteBehavior.Cascade).IsRequired());
    }
}
