namespace NzbDav.Archives.Release;

/// <summary>The PAR2 Main packet: slice size and the files of the recovery set.</summary>
/// <param name="RecoverySetId">Recovery set id (MD5 of this packet's body).</param>
/// <param name="SliceSize">Slice (block) size in bytes, a multiple of 4.</param>
/// <param name="RecoveryFileIds">Ids of the files protected by recovery data, in the set's order.</param>
/// <param name="NonRecoveryFileIds">Ids of files listed but not protected.</param>
public sealed record Par2MainPacket(
    Hash16 RecoverySetId,
    long SliceSize,
    IReadOnlyList<Hash16> RecoveryFileIds,
    IReadOnlyList<Hash16> NonRecoveryFileIds);
