# cmake -DAR=ar -DMRI=file.mri -P merge_archives.cmake: runs ar's MRI script
# (CMakeLists.txt: libgpy.a, the layers' archives merged into one).
execute_process(COMMAND ${AR} -M INPUT_FILE ${MRI} RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "ar -M ${MRI} failed: ${rc}")
endif()
