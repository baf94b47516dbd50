package no.nordvind.gustline.data

import androidx.room.Dao
import androidx.room.Query
import kotlinx.coroutines.flow.Flow

@Dao
interface InspectionDao {
    @Query("SELECT * FROM inspection WHERE status = 'draft' ORDER BY started_at DESC")
    fun drafts(): Flow<List<InspectionEntity>>

    @Query("SELECT * FROM inspection WHERE dirty = 1 LIMIT :limit")
    suspend fun dirty(limit: Int): List<InspectionEntity>
}
